CREATE TABLE "upstream_format_errors" (
	"source" text NOT NULL,
	"session_id" text NOT NULL,
	"problem" text NOT NULL,
	"occurrences" integer DEFAULT 1 NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upstream_format_errors_source_session_id_pk" PRIMARY KEY("source","session_id")
);
