-- The webhook outbox (schema/webhooks.ts): every status change of a purchase, by any statement
-- (intake, claims, fenced transitions, batch writes, operator resolutions), writes its event in
-- its own transaction. Nothing is written while no endpoint exists. quote_nano is kept as text:
-- jsonb numbers would round a bigint.
CREATE FUNCTION "webhook_outbox_on_status"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "webhook_endpoints" WHERE "deleted_at" IS NULL) THEN
    INSERT INTO "webhook_events" ("purchase_id", "sequence", "status", "snapshot")
    VALUES (NEW."id", NEW."version", NEW."status",
            to_jsonb(NEW) || jsonb_build_object('quote_nano', NEW."quote_nano"::text))
    ON CONFLICT ("purchase_id", "sequence") DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "purchases_webhook_outbox_insert" AFTER INSERT ON "purchases"
  FOR EACH ROW EXECUTE FUNCTION "webhook_outbox_on_status"();--> statement-breakpoint
CREATE TRIGGER "purchases_webhook_outbox_update" AFTER UPDATE OF "status" ON "purchases"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "webhook_outbox_on_status"();
