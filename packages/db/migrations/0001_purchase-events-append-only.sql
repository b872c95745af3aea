-- purchase_events is the audit trail: rows are appended, never changed or removed.
CREATE FUNCTION purchase_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'purchase_events is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER purchase_events_no_update_or_delete
  BEFORE UPDATE OR DELETE ON purchase_events
  FOR EACH ROW EXECUTE FUNCTION purchase_events_append_only();
--> statement-breakpoint
CREATE TRIGGER purchase_events_no_truncate
  BEFORE TRUNCATE ON purchase_events
  FOR EACH STATEMENT EXECUTE FUNCTION purchase_events_append_only();
