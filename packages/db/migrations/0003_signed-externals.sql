CREATE TABLE "signed_externals" (
	"batch_id" uuid PRIMARY KEY NOT NULL,
	"wallet_address" text NOT NULL,
	"boc" text NOT NULL,
	"normalized_hash" text NOT NULL,
	"seqno" integer NOT NULL,
	"valid_until" integer NOT NULL,
	"message_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "signed_externals_wallet_idx" ON "signed_externals" USING btree ("wallet_address","seqno");--> statement-breakpoint
-- Existing signed purchases: one external per batch (rows signed alone get a batch of their own).
UPDATE "purchases" SET "batch_id" = gen_random_uuid() WHERE "signed_boc" IS NOT NULL AND "batch_id" IS NULL;--> statement-breakpoint
INSERT INTO "signed_externals" ("batch_id", "wallet_address", "boc", "normalized_hash", "seqno", "valid_until", "message_count", "created_at")
SELECT DISTINCT ON ("batch_id") "batch_id", "wallet_address", "signed_boc", "normalized_hash", "seqno", "valid_until",
       count(*) OVER (PARTITION BY "batch_id"), "updated_at"
FROM "purchases" WHERE "signed_boc" IS NOT NULL
ORDER BY "batch_id";--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_batch_id_signed_externals_batch_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."signed_externals"("batch_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" DROP COLUMN "signed_boc";