import type { ColumnType, Generated, Selectable } from "kysely";
import type { BankAccountType } from "@/lib/constants";
import type { ConsentKind, ConsentSource, DeliveryStatus, FulfilmentMethod, InvoiceKind, MessageChannel, OrderStatus, PaymentMethod, PaymentOutcome, QuoteMode, QuoteStatus, UserRole } from "@/lib/statuses";

/**
 * Row types of the migrated schema (supabase/migrations), declared once for the query layer.
 * numeric columns arrive as strings (exact decimals); timestamps as Date.
 */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Numeric = ColumnType<string, string | number, string | number>;
type NullableNumeric = ColumnType<string | null, string | number | null | undefined, string | number | null>;

export type { FulfilmentMethod, InvoiceKind, OrderStatus, PaymentMethod, PaymentOutcome, UserRole } from "@/lib/statuses";
/**
 * A `date` column. The drivers turn it into a Date at some midnight or other: the query layer
 * reads days as text (`col::text`, YYYY-MM-DD) and writes them as text.
 */
type DayColumn = ColumnType<Date | string, string, string>;

export interface ProfilesTable {
  id: string;
  full_name: string | null;
  email: string | null;
  role: Generated<UserRole>;
  avatar_path: string | null;
  /** "Keep this address for next time" (written by place_order only). */
  delivery_address: Generated<string | null>;
  delivery_area_id: Generated<string | null>;
  created_at: Generated<Date>;
  /** The buyer's details for a full tax invoice (issue 26); empty when not given. */
  invoice_company: Generated<string>;
  invoice_address: Generated<string>;
  invoice_vat_number: Generated<string>;
}

export interface CategoriesTable {
  id: Generated<string>;
  name: string;
  /** At most this many units of the category's products fulfilled per day (null: no limit). */
  daily_limit: Generated<number | null>;
  created_at: Generated<Date>;
}

export interface ProductsTable {
  id: Generated<string>;
  name: string;
  description: Generated<string>;
  price: Numeric;
  image_path: string | null;
  category_id: string;
  available: Generated<boolean>;
  /** Days the product needs before it can be delivered or collected. */
  lead_time_days: Generated<number>;
  created_at: Generated<Date>;
  /** "Request a quote" on its page: off, beside Add to Cart, or instead of it. */
  quote_mode: Generated<QuoteMode>;
}

/** A product's pictures, in order; products.image_path is the card picture's path (020_catalogue.sql). */
export interface ProductImagesTable {
  id: Generated<string>;
  product_id: string;
  path: string;
  alt: string;
  position: number;
  is_card: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface CartItemsTable {
  id: Generated<string>;
  user_id: string;
  product_id: string;
  quantity: Generated<number>;
  added_at: Generated<Date>;
  /** The variant of product_id this line is (020_catalogue.sql). */
  variant_id: string;
  /** {"<field id>": "<text or file path>"}; {} for none. */
  personalisation: ColumnType<Record<string, string>, string | undefined, string>;
  /** A bookable service's line: the slot held, until hold_expires_at (written by add_booking_to_cart only). */
  slot_starts_at: Generated<Date | null>;
  hold_expires_at: Generated<Date | null>;
}

/** What a product asks the customer to add to a line. */
export interface ProductPersonalisationFieldsTable {
  id: Generated<string>;
  product_id: string;
  position: number;
  label: string;
  kind: "text" | "file";
  required: Generated<boolean>;
  max_length: number | null;
  price: ColumnType<string, string | number | undefined, string | number>;
}

/** Up to three per product, in order; written through save_product_options(). */
export interface ProductOptionsTable {
  product_id: string;
  position: number;
  name: string;
  choices: string[];
}

/** What a cart line, an order line and stock refer to. */
export interface ProductVariantsTable {
  id: Generated<string>;
  product_id: string;
  /** One choice per option, in the options' order; [] for a product without options. */
  option_values: Generated<string[]>;
  sku: Generated<string | null>;
  /** Null: the product's price. */
  price: NullableNumeric;
  available: Generated<boolean>;
  /** Null: stock is not counted. */
  stock: Generated<number | null>;
  low_stock_at: Generated<number | null>;
  image_path: Generated<string | null>;
  position: Generated<number>;
  created_at: Generated<Date>;
  /** When admins were told it came to its low-stock mark; null while above it. Set by a trigger. */
  low_stock_notified_at: Generated<Date | null>;
}

/** One low-stock crossing, for the admins' live notice (written by a trigger). */
export interface LowStockNoticesTable {
  id: Generated<string>;
  variant_id: string;
  stock: number;
  low_stock_at: number;
  created_at: Generated<Date>;
}

/** A customer's request to be mailed once when a sold-out variant is back. */
export interface BackInStockRequestsTable {
  id: Generated<string>;
  /** The caller (auth.uid()) by default. */
  user_id: Generated<string>;
  variant_id: string;
  created_at: Generated<Date>;
}

export interface OrdersTable {
  id: Generated<string>;
  reference: string;
  user_id: string | null;
  customer_name: string;
  customer_email: string;
  total: Numeric;
  status: Generated<OrderStatus>;
  proof_path: string | null;
  idempotency_key: string;
  payment_method: Generated<PaymentMethod>;
  fulfilment_method: Generated<FulfilmentMethod | null>;
  fulfilment_day: ColumnType<Date | string | null, string | null | undefined, string | null>;
  delivery_address: Generated<string | null>;
  delivery_area_id: Generated<string | null>;
  delivery_area_name: Generated<string | null>;
  /** Part of total, and a line of its own: kept apart so sales can count fees apart from goods. */
  delivery_fee: ColumnType<string, string | number | undefined, string | number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** An order with booked lines asking a deposit (docs/bookings.md): what checkout asked, less than the total; null: all of it. */
  deposit: NullableNumeric;
  /** The balance's own payment reference (the order's with "-B"), while the order has a deposit. */
  balance_reference: Generated<string | null>;
  balance_proof_path: Generated<string | null>;
  balance_payment_method: Generated<PaymentMethod | null>;
  /** When the balance was received (mark_balance_paid() or an online payment). */
  balance_paid_at: Generated<Date | null>;
  /** The quote version it was accepted from (accept_quote(), docs/quotes.md); null for a checkout's order. */
  quote_id: Generated<string | null>;
  /** The customer's purchase-order number, given when accepting a quote. */
  purchase_order: Generated<string | null>;
}

/** A customer's open bank-transfer reference, reserved at checkout until an order uses it. */
export interface CheckoutReferencesTable {
  user_id: string;
  reference: string;
  reserved_at: Generated<Date>;
}

export interface OrderItemsTable {
  id: Generated<string>;
  order_id: string;
  product_id: string | null;
  product_name: string;
  unit_price: Numeric;
  quantity: number;
  image_path: string | null;
  /** The delivery fee's line (no product): left out of what counts goods. */
  is_delivery_fee: Generated<boolean>;
  variant_id: Generated<string | null>;
  /** The variant's choices as sold ([] without options); product_name already names them. */
  option_values: Generated<string[]>;
  sku: Generated<string | null>;
  /** Units taken from counted stock (0: not counted). */
  stock_taken: Generated<number>;
  /** The personalisation as sold, in the fields' order; [] for none. */
  personalisation: Generated<OrderLinePersonalisation[]>;
  /** The slot sold, for a bookable service's line. */
  slot_starts_at: Generated<Date | null>;
  slot_ends_at: Generated<Date | null>;
  /** A booked line's part asked at checkout when its service's deposit is below the full price; null: all of it. */
  deposit: NullableNumeric;
  /** A booked line cancelled on its own while the order goes on (docs/bookings.md), and the deposit kept for it. */
  cancelled_at: Generated<Date | null>;
  kept: Generated<Numeric>;
}

export type BookingLocation = "customer_address" | "shop" | "online";
export type BookingDeposit = "none" | "percent" | "full";

/** A product sold as a time slot (docs/bookings.md). */
export interface BookableServicesTable {
  product_id: string;
  duration_minutes: number;
  buffer_minutes: Generated<number>;
  capacity: Generated<number>;
  notice_hours: Generated<number>;
  horizon_days: Generated<number>;
  location: Generated<BookingLocation>;
  deposit: Generated<BookingDeposit>;
  deposit_percent: Generated<number | null>;
  refund_until_hours: Generated<number>;
}

/** A service's own hours on a weekday (1 Monday ... 7 Sunday); a weekday without a row follows the shop. */
export interface BookableServiceHoursTable {
  product_id: string;
  weekday: number;
  open: Generated<boolean>;
  opens: Generated<string>;
  closes: Generated<string>;
}

export interface BookingsTable {
  id: Generated<string>;
  order_id: string;
  order_item_id: string;
  user_id: string | null;
  product_id: string | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  free_at: Timestamp;
  status: Generated<"booked" | "cancelled">;
  location: BookingLocation;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** The service's refund rule as at booking: its deposit is refunded until this many hours before the start. */
  refund_until_hours: Generated<number>;
  /** The start the 24-hour reminder went out for (send_booking_reminders()). */
  reminded_for: Generated<Date | null>;
}

/** A time the owner blocked (a closed day, an afternoon): for one service, or all (null). Admins only. */
export interface BookingBlocksTable {
  id: Generated<string>;
  product_id: string | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  reason: Generated<string>;
  created_at: Generated<Date>;
}

export interface OrderLinePersonalisation {
  label: string;
  kind: "text" | "file";
  /** The text, or the file's path in the personalisation bucket. */
  value: string;
  price: number;
}

export interface OrderStatusEventsTable {
  id: Generated<string>;
  order_id: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  changed_by: string | null;
  changed_at: Generated<Date>;
  /** Why the shop itself made the change (e.g. "not paid within 7 days"); null for a person's change. */
  reason: Generated<string | null>;
}

export interface ContactMessagesTable {
  id: Generated<string>;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  user_id: Generated<string | null>;
  read_at: Timestamp | null;
  created_at: Generated<Date>;
}

/** The published shop settings: one row at most (docs/architecture.md#shop-settings). */
export interface ShopSettingsTable {
  id: Generated<boolean>;
  bank_account_name: string;
  bank_name: string;
  bank_account_number: string;
  bank_branch_code: string;
  bank_account_type: BankAccountType;
  contact_phone: string;
  contact_email: string;
  contact_address: Generated<string>;
  information_officer_name: string;
  information_officer_email: string;
  unpaid_order_days: Generated<number>;
  /** Stamped by a trigger. */
  updated_at: Generated<Date>;
}

/** The settings only admins read: one row at most. */
export interface ShopPrivateSettingsTable {
  id: Generated<boolean>;
  orders_email: string;
  /** Stamped by a trigger, with the admin who saved. */
  updated_at: Generated<Date>;
  updated_by: Generated<string | null>;
}

/** One verified online payment per provider transaction (record_online_payment() writes them). */
export interface PaymentsTable {
  id: Generated<string>;
  order_id: string;
  provider: Exclude<PaymentMethod, "bank_transfer">;
  provider_payment_id: string;
  amount: Numeric;
  outcome: PaymentOutcome;
  details: ColumnType<Record<string, string>, string | undefined, string>;
  received_at: Generated<Date>;
  /** What it paid: the order (its total or deposit) or an order's balance. */
  part: Generated<"order" | "balance">;
}

/** The online payment provider's credentials: admins only (RLS), read by the server as the service role. */
export interface PaymentSettingsTable {
  id: Generated<boolean>;
  payfast_merchant_id: Generated<string>;
  payfast_merchant_key: Generated<string>;
  payfast_passphrase: Generated<string>;
  payfast_sandbox: Generated<boolean>;
  updated_at: Generated<Date>;
}

/** WhatsApp's settings and the owner's alerts (docs/whatsapp.md): one row, admins only; the server reads it as the service role. */
export interface WhatsAppSettingsTable {
  id: Generated<boolean>;
  enabled: Generated<boolean>;
  phone_number_id: Generated<string>;
  access_token: Generated<string>;
  app_secret: Generated<string>;
  verify_token: Generated<string>;
  owner_phone: Generated<string>;
  owner_alerts: Generated<boolean>;
  updated_at: Generated<Date>;
}

/** Fulfilment settings (docs/architecture.md#delivery-and-collection): one row, readable by everyone, admins update it. */
export interface FulfilmentSettingsTable {
  id: Generated<boolean>;
  collection_enabled: Generated<boolean>;
  collection_address: Generated<string>;
  /** "HH:MM:SS", South African time. */
  cutoff_time: Generated<string>;
  updated_at: Generated<Date>;
}

/** The shop's opening hours: one row per ISO weekday (1 Monday ... 7 Sunday), South African time. */
export interface OpeningHoursTable {
  weekday: number;
  open: Generated<boolean>;
  /** "HH:MM:SS". */
  opens: Generated<string>;
  closes: Generated<string>;
  updated_at: Generated<Date>;
}

/** A suburb or postal code the shop delivers to; deactivated, never deleted, once removed. */
export interface DeliveryAreasTable {
  id: Generated<string>;
  name: string;
  fee: Numeric;
  minimum_order: Numeric | null;
  active: Generated<boolean>;
  created_at: Generated<Date>;
}

/** A public holiday or other closed day. */
export interface ClosedDaysTable {
  day: DayColumn;
  reason: string;
}

/** Units of a limited category taken for a day (place_order takes, cancelling gives back). */
export interface DailyCapacityTable {
  category_id: string;
  day: DayColumn;
  reserved: Generated<number>;
}

/** What one order took of a day's capacity. */
export interface OrderCapacityTable {
  order_id: string;
  category_id: string;
  day: DayColumn;
  quantity: number;
}

/** auth.users: only the columns the local auth adapter touches. */
export interface AuthUsersTable {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Timestamp | null;
  last_sign_in_at: Timestamp | null;
  raw_app_meta_data: ColumnType<unknown, string | undefined, string>;
  raw_user_meta_data: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp | null;
  updated_at: Timestamp | null;
  is_anonymous: Generated<boolean>;
  deleted_at: Timestamp | null;
}

/** auth.sessions: local-mode sessions (compatibility schema). */
export interface AuthSessionsTable {
  id: string;
  user_id: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  not_after: Timestamp;
  user_agent: string | null;
  ip: string | null;
}

/** private.account_tokens: local-mode password reset and e-mail change links, by their token's SHA-256 (issue 34). */
export interface AccountTokensTable {
  token_hash: string;
  kind: "password_reset" | "email_change";
  user_id: string;
  new_email: string | null;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface AuthIdentitiesTable {
  id: Generated<string>;
  provider_id: string;
  user_id: string;
  identity_data: ColumnType<unknown, string, string>;
  provider: string;
  last_sign_in_at: Timestamp | null;
  created_at: Timestamp | null;
  updated_at: Timestamp | null;
}

export interface StorageObjectsTable {
  id: Generated<string>;
  bucket_id: string;
  name: string;
  owner_id: string | null;
  metadata: ColumnType<unknown, string | undefined, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface StorageBucketsTable {
  id: string;
  name: string;
  public: boolean;
  file_size_limit: string | null;
  allowed_mime_types: string[] | null;
}

/** The transactional outbox (docs/architecture.md#mail-outbox): written by SQL triggers, read by the worker and admins. */
export interface MailOutboxTable {
  id: Generated<string>;
  recipient: string;
  template: string;
  data: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  sent_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
  /** 'email', or 'whatsapp' for a customer's order notice while they consent (issue 40). */
  channel: Generated<MessageChannel>;
  /** Whose consent a WhatsApp row depends on (checked again when it is sent). */
  user_id: string | null;
  provider_message_id: string | null;
  delivery_status: DeliveryStatus | null;
  delivery_status_at: Date | null;
  /** The WhatsApp row this e-mail stands in for (it failed for good). */
  fallback_of: string | null;
}

/** A customer's consent to be messaged (issue 40): rows, never a boolean overwritten. */
export interface MessagingConsentsTable {
  id: Generated<string>;
  user_id: string;
  kind: ConsentKind;
  phone: string;
  source: ConsentSource;
  words: string;
  given_at: Generated<Date>;
  withdrawn_at: Date | null;
  withdrawn_via: "profile" | "stop" | null;
}

/** Invoice and VAT settings: one row at most, admins only (issue 26). */
export interface InvoiceSettingsTable {
  id: Generated<boolean>;
  vat_registered: Generated<boolean>;
  vat_number: Generated<string>;
  legal_name: string;
  legal_address: string;
  invoice_prefix: Generated<string>;
  /** Stamped by a trigger, with the admin who saved. */
  updated_at: Generated<Date>;
  updated_by: Generated<string | null>;
}

/** The invoice and credit-note counters: written only by the issuing trigger. */
export interface InvoiceCountersTable {
  kind: InvoiceKind;
  last_number: string;
}

/** The sales overview's rollup per South African day (20261202000000_sales_rollup.sql): written by triggers only. */
export interface SalesDaysTable {
  day: string;
  revenue: Numeric;
  orders: number;
}

/** The rollup per day, product and the name it was sold as (product_id null: deleted products). */
export interface SalesDayProductsTable {
  day: string;
  product_id: string | null;
  product_name: string;
  revenue: Numeric;
  units: string;
  lines: number;
}

/** Issued invoices and credit notes: written only by SQL, never changed. */
export interface InvoicesTable {
  id: Generated<string>;
  order_id: string;
  kind: InvoiceKind;
  serial: string;
  number: string;
  credits_invoice_id: string | null;
  issued_at: Generated<Date>;
  total: Numeric;
  vat: Numeric;
  snapshot: ColumnType<unknown, string, never>;
  /** A credit note for one booked line cancelled on its own; null otherwise. */
  credits_item_id: Generated<string | null>;
}

export interface InvoiceDownloadsTable {
  id: Generated<string>;
  invoice_id: string;
  downloaded_by: string | null;
  downloaded_at: Generated<Date>;
}

/** A customer's quote request (105_quotes.sql); number is Q-000001 once a version is sent. */
export interface QuoteRequestsTable {
  id: Generated<string>;
  user_id: string | null;
  customer_name: string;
  customer_email: string;
  description: string;
  items: ColumnType<QuoteRequestItem[], string, string>;
  preferred_date: ColumnType<Date | string | null, string | null | undefined, string | null>;
  company_name: Generated<string>;
  vat_number: Generated<string>;
  serial: Generated<string | null>;
  number: Generated<string | null>;
  change_asked_at: Generated<Date | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A product the customer named in a request, as it was named. */
export interface QuoteRequestItem {
  productId: string;
  variantId: string;
  name: string;
  quantity: number;
}

/** A version of a request's quote. */
export interface QuotesTable {
  id: Generated<string>;
  request_id: string;
  version: number;
  status: Generated<QuoteStatus>;
  valid_until: DayColumn;
  terms: Generated<string>;
  note: Generated<string>;
  total: Generated<string>;
  sent_at: Generated<Date | null>;
  decided_at: Generated<Date | null>;
  decline_reason: Generated<string | null>;
  purchase_order: Generated<string | null>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A version's line: a catalogue variant (at the quoted price) or a custom line. */
export interface QuoteLinesTable {
  id: Generated<string>;
  quote_id: string;
  position: number;
  product_id: string | null;
  variant_id: string | null;
  is_custom: boolean;
  description: string;
  quantity: number;
  unit_price: Numeric;
}

/** A file sent with a request (personalisation bucket, the customer's folder). */
export interface QuoteFilesTable {
  id: Generated<string>;
  request_id: string;
  path: string;
  file_name: string;
  created_at: Generated<Date>;
}

/** The customer's change requests and decline reasons. */
export interface QuoteMessagesTable {
  id: Generated<string>;
  request_id: string;
  quote_id: string | null;
  author_id: string | null;
  from_customer: boolean;
  kind: "change" | "decline";
  body: string;
  created_at: Generated<Date>;
}

/** The Q- counter's one row. */
export interface QuoteCountersTable {
  id: Generated<boolean>;
  last_number: Generated<string>;
}

export interface DB {
  profiles: ProfilesTable;
  categories: CategoriesTable;
  products: ProductsTable;
  product_images: ProductImagesTable;
  cart_items: CartItemsTable;
  product_options: ProductOptionsTable;
  product_variants: ProductVariantsTable;
  product_personalisation_fields: ProductPersonalisationFieldsTable;
  low_stock_notices: LowStockNoticesTable;
  back_in_stock_requests: BackInStockRequestsTable;
  orders: OrdersTable;
  checkout_references: CheckoutReferencesTable;
  order_items: OrderItemsTable;
  bookable_services: BookableServicesTable;
  bookable_service_hours: BookableServiceHoursTable;
  bookings: BookingsTable;
  booking_blocks: BookingBlocksTable;
  order_status_events: OrderStatusEventsTable;
  contact_messages: ContactMessagesTable;
  shop_settings: ShopSettingsTable;
  shop_private_settings: ShopPrivateSettingsTable;
  payments: PaymentsTable;
  payment_settings: PaymentSettingsTable;
  whatsapp_settings: WhatsAppSettingsTable;
  fulfilment_settings: FulfilmentSettingsTable;
  opening_hours: OpeningHoursTable;
  delivery_areas: DeliveryAreasTable;
  closed_days: ClosedDaysTable;
  daily_capacity: DailyCapacityTable;
  order_capacity: OrderCapacityTable;
  mail_outbox: MailOutboxTable;
  messaging_consents: MessagingConsentsTable;
  invoice_settings: InvoiceSettingsTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  invoice_downloads: InvoiceDownloadsTable;
  quote_requests: QuoteRequestsTable;
  quotes: QuotesTable;
  quote_lines: QuoteLinesTable;
  quote_files: QuoteFilesTable;
  quote_messages: QuoteMessagesTable;
  quote_counters: QuoteCountersTable;
  sales_days: SalesDaysTable;
  sales_day_products: SalesDayProductsTable;
  "auth.users": AuthUsersTable;
  "auth.sessions": AuthSessionsTable;
  "auth.identities": AuthIdentitiesTable;
  "private.account_tokens": AccountTokensTable;
  "storage.objects": StorageObjectsTable;
  "storage.buckets": StorageBucketsTable;
}

export type Product = Selectable<ProductsTable>;
export type Category = Selectable<CategoriesTable>;
export type Order = Selectable<OrdersTable>;
export type Payment = Selectable<PaymentsTable>;
export type Profile = Selectable<ProfilesTable>;
