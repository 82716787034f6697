/** Business constants and limits (spec §9), in one place. */

/** Status and feedback messages clear after this long. */
export const MESSAGE_CLEAR_MS = 3_000;
/** An admin's notice of a new order or message hides itself after this long (unless hovered or focused). */
export const NOTICE_TOAST_MS = 8_000;
/** At most this many notices show at once; an older one makes way (the badges still count it). */
export const MAX_NOTICE_TOASTS = 3;
/** A copy button shows "Copied" for this long. */
export const COPY_CONFIRM_MS = 2_000;
/** After a successful order the customer is taken to /products after this long. */
export const ORDER_REDIRECT_MS = 5_000;
/** The home page's testimonials advance this often. */
export const TESTIMONIAL_ROTATION_MS = 7_000;
/** The auth provider's minimum password length. */
export const MIN_PASSWORD_LENGTH = 6;
/** bcrypt reads at most 72 bytes; Supabase Auth refuses longer passwords too. */
export const MAX_PASSWORD_LENGTH = 72;
export const MAX_NAME_LENGTH = 100;
export const MAX_EMAIL_LENGTH = 255;

/** A rate limit: at most `attempts` in any `windowMs`. */
export interface LimitRule {
  attempts: number;
  windowMs: number;
}

/**
 * Rate limits per sliding window: failed sign-ins per e-mail and per client address, sign-ups and
 * contact messages per client address, checkouts per customer. Generous for people, tight for
 * scripts. Kept in the database, so they hold across server processes (docs/architecture.md#caches-and-several-processes).
 */
export const SIGN_IN_EMAIL_LIMIT: LimitRule = { attempts: 5, windowMs: 15 * 60_000 };
export const SIGN_IN_ADDRESS_LIMIT: LimitRule = { attempts: 20, windowMs: 15 * 60_000 };
export const SIGN_UP_LIMIT: LimitRule = { attempts: 20, windowMs: 60 * 60_000 };
export const CONTACT_LIMIT: LimitRule = { attempts: 10, windowMs: 60 * 60_000 };
/** "Download my data": a customer needs it rarely; each export reads all their orders. */
export const DATA_EXPORT_LIMIT: LimitRule = { attempts: 5, windowMs: 60 * 60_000 };
export const CHECKOUT_LIMIT: LimitRule = { attempts: 10, windowMs: 15 * 60_000 };
/** Quote requests per customer: each mails the shop, so one account cannot flood its inbox. */
export const QUOTE_REQUEST_LIMIT: LimitRule = { attempts: 20, windowMs: 60 * 60_000 };
/** "Forgot password?" requests per e-mail address and per client address (issue 34): a mailbox is not to be flooded. */
export const PASSWORD_RESET_EMAIL_LIMIT: LimitRule = { attempts: 3, windowMs: 60 * 60_000 };
export const PASSWORD_RESET_ADDRESS_LIMIT: LimitRule = { attempts: 10, windowMs: 60 * 60_000 };
/** A password reset or e-mail change link (local modes) works once, for this long. */
export const ACCOUNT_LINK_TTL_MS = 60 * 60_000;

/** Products per page on /products, and the catalogue.list default (at most 100 per call). */
export const PRODUCTS_PER_PAGE = 24;
export const MAX_PRODUCTS_PER_CALL = 100;
/** The highest page number /products and catalogue.list accept. */
export const MAX_PRODUCT_PAGE = 10_000;

/** The product list's sort orders (`?sort=` on /products); the first is the default. */
export const PRODUCT_SORTS = ["newest", "price-asc", "price-desc"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

/**
 * The account types South African banks name (Cheque and Current are one kind: banks differ in
 * the word). The shop_settings table checks the same list.
 */
export const BANK_ACCOUNT_TYPES = ["Cheque", "Current", "Savings", "Transmission"] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];
/** Unpaid orders are cancelled after this many days by default (0: never), at most MAX_UNPAID_ORDER_DAYS. */
export const DEFAULT_UNPAID_ORDER_DAYS = 7;
export const MAX_UNPAID_ORDER_DAYS = 90;

/**
 * Supabase mode: while Realtime is unreachable, live views refetch the cart and orders (and, for
 * admins, the order list and messages) this often instead of waiting for changes.
 */
export const LIVE_POLL_MS = 15_000;
/** Supabase mode: a live channel not joined this long after subscribing counts as paused (polling starts). */
export const LIVE_JOIN_GRACE_MS = 5_000;

/**
 * The most of one product a cart line holds. cart_items.quantity's check (`between 1 and 10000`,
 * core schema migration) is the rule; this is its number for messages, and a test reads the
 * check back from the database to keep the two equal.
 */
export const MAX_CART_LINE_QUANTITY = 10_000;

/**
 * A counted variant with this many or fewer in stock shows "Only N left" (more: "In stock").
 * The product_variants_stock_shown trigger (020_catalogue.sql) drops the shop's cached pages only
 * when a count at or below this changes; tests/db/variants-and-stock.test.ts holds the two together.
 */
export const STOCK_FEW_LEFT = 5;

/**
 * VAT (issue 26): prices are VAT-inclusive at this rate, in percent. The database's
 * private.vat_rate_percent() holds the same number (tests/db/invoices.test.ts keeps them equal).
 */
export const VAT_RATE_PERCENT = 15;
/** Above this total (rands, VAT inclusive) a full tax invoice names the buyer; at or below it an abridged one will do (SARS). */
export const FULL_TAX_INVOICE_ABOVE = 5_000;
/** The invoice number prefix a new shop starts with (INVOICE_PREFIX overrides it). */
export const DEFAULT_INVOICE_PREFIX = "INV-";
/** The sales overview's longest range, in days (its chart has a point per day). */
export const MAX_OVERVIEW_DAYS = 366;
/** Rows per page when the overview's CSV is streamed: one short read each, so no transaction is held open. */
export const OVERVIEW_CSV_PAGE = 2_000;
/** A new shop's opening hours on its open weekdays (Monday to Friday), South African time. */
export const DEFAULT_OPENS = "09:00";
export const DEFAULT_CLOSES = "16:00";
/**
 * The go-live checklist's items (issue 34), in the order it lists them: what must change before
 * the shop takes real customers, each a setting still at its demo value or missing
 * (src/server/settings/go-live.ts decides which are left).
 */
export const GO_LIVE_ITEMS = ["bank", "phone", "email", "address", "informationOfficer", "invoiceDetails", "collection", "payfastSandbox", "siteUrl", "mail", "whatsapp"] as const;
export type GoLiveItem = (typeof GO_LIVE_ITEMS)[number];
/**
 * The most pictures a product has (issue 37): add_product_image() (020_catalogue.sql) refuses
 * more; tests/db/product-pictures.test.ts holds the two together.
 */
export const MAX_PRODUCT_PICTURES = 12;
/**
 * How long a bookable service's slot is held once it is in a cart (issue 38; docs/bookings.md):
 * add_booking_to_cart() (095_bookings.sql) says the same number; tests/api/bookings.test.ts holds
 * the two together.
 */
export const BOOKING_HOLD_MINUTES = 15;
/** How many days of free times a service's page shows. */
export const BOOKING_DAYS_SHOWN = 7;
/** The hours (South African, from and to) the admins' bookings calendar always shows; earlier or later bookings widen it. */
export const CALENDAR_HOURS = { from: 8, to: 17 } as const;

/** How many quote requests a list (the profile's, the admins' inbox) shows, latest change first. */
export const QUOTE_LIST_LIMIT = 200;
