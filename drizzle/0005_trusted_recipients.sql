CREATE TABLE "trusted_recipients" (
	"account_id" text NOT NULL,
	"pix_key_type" text NOT NULL,
	"pix_key" text NOT NULL,
	"name" text,
	"effective_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trusted_recipients_account_id_pix_key_type_pix_key_pk" PRIMARY KEY("account_id","pix_key_type","pix_key"),
	CONSTRAINT "trusted_recipients_pix_key_type_known" CHECK ("trusted_recipients"."pix_key_type" IN ('cpf', 'cnpj', 'email', 'phone', 'evp')),
	CONSTRAINT "trusted_recipients_name_bounded" CHECK (char_length("trusted_recipients"."name") BETWEEN 1 AND 64)
);
--> statement-breakpoint
ALTER TABLE "trusted_recipients" ADD CONSTRAINT "trusted_recipients_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;