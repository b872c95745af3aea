-- Idempotency keys are scoped to the payer (docs/security.md, attack 5). Existing rows get their
-- scope before the column turns NOT NULL: a checkout its payer address (raw), a purchase its payer
-- public key (hex). A purchase stored before that key was (migration 0008) gets a scope no request
-- computes: its key no longer blocks anyone, and a retry of it would be taken as a new order.
ALTER TABLE "purchases" ADD COLUMN "idempotency_scope" text;--> statement-breakpoint
UPDATE "purchases" SET "idempotency_scope" = CASE
  WHEN "mode" = 'client_signed' THEN COALESCE("requested_wallet_address", 'legacy-unscoped')
  ELSE COALESCE("payer_public_key", 'legacy-unscoped')
END;--> statement-breakpoint
ALTER TABLE "purchases" ALTER COLUMN "idempotency_scope" SET NOT NULL;--> statement-breakpoint
DROP INDEX "purchases_idempotency_key_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_idempotency_key_idx" ON "purchases" USING btree ("idempotency_key","mode","idempotency_scope");
