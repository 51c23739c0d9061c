CREATE TABLE "assistant_pins" (
	"user_id" uuid NOT NULL,
	"consultation_type_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assistant_pins" ADD CONSTRAINT "assistant_pins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "assistant_pins_one" ON "assistant_pins" USING btree ("user_id","consultation_type_id");