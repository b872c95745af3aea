ALTER TABLE "purchases" ADD COLUMN "order_line" jsonb;--> statement-breakpoint
UPDATE "purchases" SET "order_line" = jsonb_build_object(
  'product', "product",
  'recipient', "username",
  'quantities', jsonb_build_object(
    CASE "product" WHEN 'stars' THEN 'stars' WHEN 'premium' THEN 'months' WHEN 'gram' THEN 'gram' END,
    "amount"
  )
) WHERE "order_line" IS NULL;
