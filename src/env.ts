import { z } from "@/lib/zod";

/**
 * The one place that reads process.env. Everything else imports `env` (server) or the
 * NEXT_PUBLIC_ values it needs from here, already validated.
 */
const optional = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const BOOLEAN_WORDS = ["true", "false", "1", "0", "yes", "no"] as const;

/** A yes/no setting: true/false, 1/0 or yes/no, in any case; unset takes `fallback`. */
const flag = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((value) => value === "" || (BOOLEAN_WORDS as readonly string[]).includes(value), {
      message: `takes one of ${BOOLEAN_WORDS.join(", ")}`,
    })
    .transform((value) => (value === "" ? fallback : value === "true" || value === "1" || value === "yes"))
    .optional()
    .transform((value) => value ?? fallback);

const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** Embedded mode: where PGlite keeps the database and where local files are stored. */
  DATA_DIR: z.string().trim().min(1).default(".data"),
  /** A PostgreSQL server: selects the postgres mode (or, with the Supabase keys, Supabase's Postgres). */
  DATABASE_URL: optional,
  /** Public origin of the shop, used for absolute links (sitemap, Open Graph, OAuth redirects). */
  SITE_URL: optional,
  /** Local auth: the JWT signing secret. Generated once into DATA_DIR when unset. */
  AUTH_JWT_SECRET: optional,
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  NEXT_PUBLIC_SUPABASE_URL: optional,
  NEXT_PUBLIC_SUPABASE_ANON_KEY: optional,
  SUPABASE_SERVICE_ROLE_KEY: optional,
  /** Outside production the embedded seed adds a demo admin and a demo customer; false turns that off. */
  SEED_DEMO_USERS: flag(true),
  /**
   * Whether a proxy in front (a load balancer, Vercel) sets X-Forwarded-For: only then is the
   * client address for rate limits taken from it (docs/architecture.md#caches-and-several-processes).
   */
  TRUST_PROXY: flag(false),
  /**
   * Sign-ups allowed from one client address per hour (SIGN_UP_LIMIT's 20 when unset): more for a
   * shop whose customers share one office or campus address; the browser tests' many sign-ups.
   */
  SIGN_UPS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).optional(),
  // The shop's name and tagline (src/server/settings/site.ts holds the defaults).
  SHOP_NAME: optional,
  SHOP_TAGLINE: optional,
  // The shop settings a new shop starts with (docs/architecture.md#shop-settings): seeded once, then the owner edits
  // them under Shop settings. Checked on start by the settings form's rules (settings/defaults.ts).
  SHOP_EMAIL: optional,
  SHOP_PHONE: optional,
  SHOP_ADDRESS: optional,
  /** Where order notices go; unset: SHOP_EMAIL. */
  SHOP_ORDERS_EMAIL: optional,
  /** The POPIA information officer named in the privacy notice; unset: none named yet, and the notice names the business as responsible (go-live checklist). */
  SHOP_INFORMATION_OFFICER: optional,
  SHOP_INFORMATION_OFFICER_EMAIL: optional,
  BANK_ACCOUNT_NAME: optional,
  BANK_NAME: optional,
  BANK_ACCOUNT_NUMBER: optional,
  BANK_BRANCH_CODE: optional,
  /** Cheque, Current, Savings or Transmission. */
  BANK_ACCOUNT_TYPE: optional,
  /** Days after which unpaid orders are cancelled, 0 to 90 (0: never); unset: 7. */
  UNPAID_ORDER_DAYS: optional,
  // Invoices (src/server/invoices/defaults.ts): seeded once, then edited under Shop settings.
  /** The shop's VAT number (10 digits starting with 4); set means VAT-registered. */
  SHOP_VAT_NUMBER: optional,
  /** The registered name and address printed on invoices; unset: the shop's name and SHOP_ADDRESS. */
  SHOP_LEGAL_NAME: optional,
  SHOP_LEGAL_ADDRESS: optional,
  /** Printed before each invoice's number (INV-000042); unset: INV-. */
  INVOICE_PREFIX: optional,
  /**
   * PayFast (docs/payments.md): the merchant credentials seed Shop settings on first start, as
   * BANK_* do; the owner edits them there. PAYFAST_SANDBOX: PayFast's test system.
   */
  PAYFAST_MERCHANT_ID: optional,
  PAYFAST_MERCHANT_KEY: optional,
  PAYFAST_PASSPHRASE: optional,
  PAYFAST_SANDBOX: flag(false),
  /** PayFast's address; unset: https://www.payfast.co.za, or https://sandbox.payfast.co.za in sandbox mode. */
  PAYFAST_URL: optional.refine((value) => value === undefined || /^https?:\/\/[^\s/?#]+\/?$/i.test(value), "must be an origin such as https://sandbox.payfast.co.za"),
  /** Comma-separated addresses or CIDR ranges PayFast notifies from; unset: PayFast's published ranges. */
  PAYFAST_ITN_SOURCES: optional.transform((value) => value?.split(",").map((source) => source.trim()).filter(Boolean)),
  /**
   * The outbox's SMTP server (docs/architecture.md#mail-outbox): smtp://user:pass@host:587 (STARTTLS when offered)
   * or smtps://user:pass@host:465 (TLS). Unset: mails stay in the outbox for admins to see.
   */
  SMTP_URL: optional.refine(
    // The message never repeats the value: it holds a password.
    (value) => value === undefined || /^smtps?:\/\/[^/?#]+\/?$/i.test(value),
    "must look like smtp://user:pass@host:587 or smtps://user:pass@host:465",
  ),
  /** The From of every mail, e.g. "Our World Services <orders@example.co.za>"; unset: the shop's email. */
  /**
   * Serverless hosting: the secret a scheduler sends (`Authorization: Bearer …`) to
   * /api/mail/send, which delivers the outbox once. Unset: that route answers 404.
   */
  CRON_SECRET: optional.refine((value) => value === undefined || value.length >= 16, "must be at least 16 characters"),
  /**
   * WhatsApp Business Cloud API (docs/whatsapp.md): order updates on WhatsApp for customers who
   * consent. Set in Shop settings > WhatsApp; these four are the fallback while nothing is saved
   * there: all four of WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_ACCESS_TOKEN, WHATSAPP_APP_SECRET and
   * WHATSAPP_VERIFY_TOKEN set: on; otherwise the shop sends e-mail only, as without them.
   * The token and secrets are never logged nor sent to a browser.
   */
  WHATSAPP_PHONE_NUMBER_ID: optional.refine((value) => value === undefined || /^[0-9]{5,30}$/.test(value), "must be the phone number id (digits) from Meta's WhatsApp > API Setup"),
  WHATSAPP_ACCESS_TOKEN: optional,
  WHATSAPP_APP_SECRET: optional,
  WHATSAPP_VERIFY_TOKEN: optional.refine((value) => value === undefined || value.length >= 16, "must be at least 16 characters"),
  /** Meta's Graph API; tests point it at a fake on loopback. */
  WHATSAPP_API_URL: optional.refine((value) => value === undefined || /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(value), "must be an address such as https://graph.facebook.com"),
  /** The Graph API version in each request's path; unset: v23.0. */
  WHATSAPP_API_VERSION: optional.refine((value) => value === undefined || /^v[0-9]+\.[0-9]+$/.test(value), "must look like v23.0"),
  MAIL_FROM: optional.refine((value) => value === undefined || value.includes("@"), "must be an address, e.g. Our World Services <orders@example.co.za>"),
});

export type Env = z.infer<typeof schema>;

function readEnv(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}=${JSON.stringify(process.env[String(issue.path[0])] ?? "")} ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n  ${problems.join("\n  ")}`);
  }
  return parsed.data;
}

export const env: Env = readEnv();

export type RunMode = "embedded" | "postgres" | "supabase";

/** Which of the three run modes this configuration selects (docs/architecture.md#run-modes-and-the-one-data-path). */
export function runMode(config: Env = env): RunMode {
  if (config.NEXT_PUBLIC_SUPABASE_URL && config.NEXT_PUBLIC_SUPABASE_ANON_KEY) return "supabase";
  if (config.DATABASE_URL) return "postgres";
  return "embedded";
}
