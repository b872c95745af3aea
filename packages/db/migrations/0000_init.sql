CREATE TABLE "leases" (
	"name" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"fence" bigint DEFAULT 1 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "purchase_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"purchase_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"version" integer NOT NULL,
	"actor" text NOT NULL,
	"reason" text,
	"data" jsonb,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_fingerprint" text NOT NULL,
	"fingerprint_key_id" text NOT NULL,
	"status" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"product" text NOT NULL,
	"username" text NOT NULL,
	"amount" integer NOT NULL,
	"payment_method" text NOT NULL,
	"seed_format" text NOT NULL,
	"account_index" integer,
	"requested_wallet_address" text,
	"wallet_address" text,
	"wallet_version" text,
	"attempt" integer DEFAULT 0 NOT NULL,
	"next_run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"step_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"fragment_req_id" text,
	"fragment_ref" text,
	"quote_nano" bigint,
	"payment_request" jsonb,
	"signed_boc" text,
	"normalized_hash" text,
	"seqno" integer,
	"valid_until" integer,
	"batch_id" uuid,
	"transaction_hash" text,
	"transaction_lt" text,
	"error" jsonb,
	"evidence" jsonb,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "purchases_status_check" CHECK ("purchases"."status" IN ('queued','preparing','sending','submitted','confirming','completed','failed','reconciliation_required')),
	CONSTRAINT "purchases_product_check" CHECK ("purchases"."product" IN ('stars','premium')),
	CONSTRAINT "purchases_payment_method_check" CHECK ("purchases"."payment_method" IN ('gram','usdt'))
);
--> statement-breakpoint
CREATE TABLE "wallet_secrets" (
	"purchase_id" uuid PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"wrapped_key" "bytea",
	"ciphertext" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"destroyed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "purchase_events" ADD CONSTRAINT "purchase_events_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_secrets" ADD CONSTRAINT "wallet_secrets_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchase_events_purchase_idx" ON "purchase_events" USING btree ("purchase_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_idempotency_key_idx" ON "purchases" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "purchases_live_next_run_idx" ON "purchases" USING btree ("next_run_at") WHERE "purchases"."status" NOT IN ('completed', 'failed', 'reconciliation_required');--> statement-breakpoint
CREATE INDEX "purchases_live_wallet_idx" ON "purchases" USING btree ("wallet_address","status") WHERE "purchases"."status" NOT IN ('completed', 'failed', 'reconciliation_required');