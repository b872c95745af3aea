ALTER TABLE "purchases" DROP CONSTRAINT "purchases_status_check";--> statement-breakpoint
DROP INDEX "purchases_idempotency_key_idx";--> statement-breakpoint
DROP INDEX "purchases_live_next_run_idx";--> statement-breakpoint
DROP INDEX "purchases_live_wallet_idx";--> statement-breakpoint
ALTER TABLE "purchases" ALTER COLUMN "seed_format" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "mode" text DEFAULT 'server_signed' NOT NULL;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "payer_public_key" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "payer_state_init" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "checkout_transaction" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_idempotency_key_idx" ON "purchases" USING btree ("idempotency_key","mode");--> statement-breakpoint
CREATE INDEX "purchases_live_next_run_idx" ON "purchases" USING btree ("next_run_at") WHERE "purchases"."status" NOT IN ('completed', 'failed', 'reconciliation_required', 'expired');--> statement-breakpoint
CREATE INDEX "purchases_live_wallet_idx" ON "purchases" USING btree ("wallet_address","status") WHERE "purchases"."status" NOT IN ('completed', 'failed', 'reconciliation_required', 'expired');--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_mode_check" CHECK ("purchases"."mode" IN ('server_signed', 'client_signed'));--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_seed_format_check" CHECK ("purchases"."mode" = 'client_signed' OR "purchases"."seed_format" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_status_check" CHECK ("purchases"."status" IN ('queued','preparing','sending','submitted','confirming','completed','failed','reconciliation_required','awaiting_signature','expired'));