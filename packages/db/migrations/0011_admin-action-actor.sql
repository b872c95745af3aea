ALTER TABLE "admin_actions" ADD COLUMN "actor" text;--> statement-breakpoint
UPDATE "admin_actions" SET "actor" = 'token:' || "token_id";--> statement-breakpoint
ALTER TABLE "admin_actions" ALTER COLUMN "actor" SET NOT NULL;
