-- Cart and orders (src/server/cart/, src/server/orders/, src/server/live/): the cart, the orders
-- with their lines and status history, the order bookkeeping triggers, the unpaid-order policy
-- and the live-update notifications. Orders are placed only by place_order() (100_checkout.sql).
-- Errors raised here carry a stable code as their message (e.g. 'cart_empty'); the server maps
-- each to the message for the user (src/server/db/sql-errors.ts).

-- Orders start in pending_payment (customers read "Pending Payment Verification"); paid orders
-- are pending_delivery or complete (invoices, the sales overview and capacity count them so).
create type public.order_status as enum ('pending_payment', 'pending_delivery', 'complete', 'cancelled');

-- public.cart_items ---------------------------------------------------------------------------
-- A surrogate id keeps realtime DELETE events (which carry only the primary key and are not
-- filtered by RLS) free of whose cart held which product.
-- Triggers (they fire in name order within each timing):
--   cart_items_notify: after insert or delete or update, per row -> public.notify_shop_change()
-- A line is one variant (020_catalogue.sql) of its product; product_id is kept beside it (checked
-- against the variant by the composite key) for what reads a cart per product or category.
create table public.cart_items (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  product_id uuid not null references public.products (id) on delete cascade,
  quantity integer not null default 1 check (quantity between 1 and 10000),
  added_at timestamptz not null default now(),
  variant_id uuid not null,
  -- The customer's personalisation of this line: {"<field id>": "<text or file path>"}
  -- (020_catalogue.sql's product_personalisation_fields); {} for none. The same variant with
  -- other personalisation is another line.
  personalisation jsonb not null default '{}' check (jsonb_typeof(personalisation) = 'object'),
  constraint cart_items_variant_fkey foreign key (variant_id, product_id)
    references public.product_variants (id, product_id) on delete cascade,
  -- A bookable service's line (020_catalogue.sql's bookable_services) is one slot, held until
  -- hold_expires_at (095_bookings.sql); quantity 1. Written only by add_booking_to_cart().
  slot_starts_at timestamptz,
  hold_expires_at timestamptz,
  constraint cart_items_slot_shape check (
    (slot_starts_at is null) = (hold_expires_at is null) and (slot_starts_at is null or quantity = 1))
);

create index cart_items_product_idx on public.cart_items (product_id);
create index cart_items_variant_idx on public.cart_items (variant_id);
-- One line per variant and personalisation without a slot; one per variant and slot with one.
create unique index cart_items_user_variant_key on public.cart_items (user_id, variant_id, personalisation)
  where slot_starts_at is null;
create unique index cart_items_user_slot_key on public.cart_items (user_id, variant_id, slot_starts_at)
  where slot_starts_at is not null;
-- Live holds of a service, read by the free-slot computation.
create index cart_items_holds_idx on public.cart_items (product_id, slot_starts_at)
  include (hold_expires_at, user_id) where slot_starts_at is not null;

alter table public.cart_items enable row level security;
-- cart_items: only the owner, and only available variants of available products go in; never a
-- slot or a bookable service (add_booking_to_cart() holds slots).
create policy "cart_items: read own" on public.cart_items
  for select to authenticated using (user_id = (select auth.uid()));
create policy "cart_items: insert own, available products" on public.cart_items
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and slot_starts_at is null and hold_expires_at is null
    and exists (
      select 1 from public.products p join public.product_variants v on v.product_id = p.id
      where p.id = product_id and v.id = variant_id and p.available and v.available)
    and not exists (select 1 from public.bookable_services b where b.product_id = cart_items.product_id)
  );
create policy "cart_items: update own" on public.cart_items
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "cart_items: delete own" on public.cart_items
  for delete to authenticated using (user_id = (select auth.uid()));

revoke update on public.cart_items from anon, authenticated;
grant all on public.cart_items to service_role;
grant update (quantity) on public.cart_items to authenticated;

-- add_variant_to_cart: +1 on an existing line of the variant with the same personalisation, a
-- new line at 1; only available variants of available products, personalisation as the product
-- asks (private.check_personalisation), and no more than a counted variant has in stock
-- (place_order takes the stock; this only keeps a cart from asking for what is not there). A
-- bookable service needs its slot ('slot_required': add_booking_to_cart); a product sold by
-- quote only is asked for by quote ('quote_only').
-- Security invoker: the caller's own RLS policies decide, as for any direct write.
create function public.add_variant_to_cart(p_variant_id uuid, p_personalisation jsonb) returns public.cart_items
language plpgsql security invoker set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_variant public.product_variants;
  v_item public.cart_items;
  v_in_cart integer;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select v.* into v_variant
  from public.product_variants v join public.products p on p.id = v.product_id
  where v.id = p_variant_id and v.available and p.available;
  if not found then
    raise exception 'product_unavailable';
  end if;
  if exists (select 1 from public.bookable_services b where b.product_id = v_variant.product_id) then
    raise exception 'slot_required';
  end if;
  -- Sold by quote only (docs/quotes.md): asked for through "Request a quote", never the cart.
  if exists (select 1 from public.products p where p.id = v_variant.product_id and p.quote_mode = 'instead') then
    raise exception 'quote_only';
  end if;
  perform private.check_personalisation(v_variant.product_id, coalesce(p_personalisation, '{}'), v_uid);
  insert into public.cart_items as c (user_id, product_id, variant_id, personalisation, quantity)
  values (v_uid, v_variant.product_id, v_variant.id, coalesce(p_personalisation, '{}'), 1)
  on conflict (user_id, variant_id, personalisation) where slot_starts_at is null do update set quantity = c.quantity + 1
  returning * into v_item;
  if v_variant.stock is not null then
    select sum(c.quantity) into v_in_cart from public.cart_items c where c.user_id = v_uid and c.variant_id = v_variant.id;
    if v_in_cart > v_variant.stock then
      raise exception 'not_enough_stock';
    end if;
  end if;
  return v_item;
end
$$;
revoke execute on function public.add_variant_to_cart(uuid, jsonb) from public, anon;
grant execute on function public.add_variant_to_cart(uuid, jsonb) to authenticated, service_role;

-- Without personalisation.
create function public.add_variant_to_cart(p_variant_id uuid) returns public.cart_items
language sql security invoker set search_path = ''
as $$
  select public.add_variant_to_cart(p_variant_id, '{}'::jsonb)
$$;
revoke execute on function public.add_variant_to_cart(uuid) from public, anon;
grant execute on function public.add_variant_to_cart(uuid) to authenticated, service_role;

-- add_to_cart: the same for a product sold as one variant (a product without options, with or
-- without personalisation); a product with options needs its variant chosen ('variant_required').
create function public.add_to_cart(p_product_id uuid, p_personalisation jsonb default '{}') returns public.cart_items
language plpgsql security invoker set search_path = ''
as $$
declare
  v_variants uuid[];
begin
  if not exists (select 1 from public.products where id = p_product_id and available) then
    raise exception 'product_unavailable';
  end if;
  select array_agg(v.id) into v_variants from public.product_variants v where v.product_id = p_product_id;
  if cardinality(v_variants) is distinct from 1 then
    raise exception 'variant_required';
  end if;
  return public.add_variant_to_cart(v_variants[1], p_personalisation);
end
$$;
revoke execute on function public.add_to_cart(uuid, jsonb) from public, anon;
grant execute on function public.add_to_cart(uuid, jsonb) to authenticated, service_role;

-- increase_cart_line: +1 on the caller's line. Refused, in this order (the API tells the first):
-- its product or variant no longer sold ('product_unavailable'), a booked time ('one_booking_per_line':
-- each time is its own line), the line's limit (the table's check, on the update), and for a
-- counted variant more than is in stock over all the caller's lines of it, one per personalisation
-- ('not_enough_stock'; place_order checks again under its lock). Null when the caller has no such line.
create function public.increase_cart_line(p_line_id uuid) returns public.cart_items
language plpgsql security invoker set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_item public.cart_items;
  v_stock integer;
  v_available boolean;
  v_booking boolean;
begin
  select v.stock, v.available and p.available, c.slot_starts_at is not null into v_stock, v_available, v_booking
  from public.cart_items c
  join public.product_variants v on v.id = c.variant_id
  join public.products p on p.id = v.product_id
  where c.id = p_line_id and c.user_id = v_uid;
  if not found then
    return null;
  end if;
  if not v_available then
    raise exception 'product_unavailable';
  end if;
  if v_booking then
    raise exception 'one_booking_per_line';
  end if;
  update public.cart_items c set quantity = c.quantity + 1
  where c.id = p_line_id and c.user_id = v_uid
  returning * into v_item;
  if not found then
    return null;
  end if;
  if v_stock is not null and (select sum(c.quantity) from public.cart_items c where c.user_id = v_uid and c.variant_id = v_item.variant_id) > v_stock then
    raise exception 'not_enough_stock';
  end if;
  return v_item;
end
$$;
revoke execute on function public.increase_cart_line(uuid) from public, anon;
grant execute on function public.increase_cart_line(uuid) to authenticated, service_role;

-- public.orders -------------------------------------------------------------------------------
-- Created only through place_order() (100_checkout.sql) or accept_quote() (105_quotes.sql); the owner and admins read, admins set
-- the status. Status history, notices, mails, invoices, capacity and the sales rollup are written
-- by triggers in the transaction of the change itself, so none can be missing after a commit.
-- Triggers (they fire in name order within each timing):
--   orders_bookings_on_status: after update of status, per row, when it changes -> public.order_bookings_on_status() (095_bookings.sql)
--   orders_capacity_on_status: after update of status, per row -> public.order_capacity_on_status() (090_fulfilment.sql)
--   orders_invoice_payment: after update of status, per row -> public.invoice_paid_order() (080_invoices.sql)
--   orders_mail_placed: after insert, per row, deferrable initially deferred -> public.mail_order_placed() (070_mail.sql)
--   orders_mail_status: after update of status, per row -> public.mail_order_status() (070_mail.sql)
--   orders_notify: after insert or delete or update, per row -> public.notify_shop_change()
--   orders_record_status: after insert or update of status, per row -> public.record_order_status()
--   orders_sales_rollup: after insert or update of status, created_at, total, per row -> public.sales_rollup_orders() (110_overview.sql)
--   orders_stock_on_status: after update of status, per row, when it changes -> public.order_stock_on_status()
--   orders_sales_rollup_delete: before delete, per row -> public.sales_rollup_orders() (110_overview.sql)
--   orders_touch: before update, per row -> public.touch_order()
create table public.orders (
  id uuid primary key default gen_random_uuid(),
  reference text not null unique check (reference ~ '^ORD-[0-9]{1,6}$'),
  -- Kept (as null) after the customer deletes their account: the order stays for the records.
  user_id uuid references public.profiles (id) on delete set null,
  customer_name text not null check (char_length(customer_name) <= 255),
  customer_email text not null check (char_length(customer_email) <= 255),
  total numeric(12, 2) not null check (total > 0),
  status public.order_status not null default 'pending_payment',
  proof_path text check (char_length(proof_path) <= 500),
  idempotency_key uuid not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- How the order is (to be) paid (085_payments.sql).
  payment_method text not null default 'bank_transfer'
    check (payment_method in ('bank_transfer', 'payfast')),
  -- Delivery or collection (090_fulfilment.sql); all null until the owner sets fulfilment up.
  fulfilment_method text check (fulfilment_method in ('delivery', 'collection')),
  fulfilment_day date,
  delivery_address text check (char_length(delivery_address) <= 300),
  -- References public.delivery_areas (id): added in 090_fulfilment.sql, where the areas are made.
  delivery_area_id uuid,
  -- The area's name when the order was placed (an area may be renamed or removed later).
  delivery_area_name text check (char_length(delivery_area_name) <= 100),
  -- Also an order line ("Delivery to ..."), and part of total; kept here apart from the goods.
  delivery_fee numeric(12, 2) not null default 0 check (delivery_fee >= 0),
  unique (user_id, idempotency_key),
  -- The quote version this order was accepted from (105_quotes.sql, where the foreign key is
  -- added): one order per version. The customer's purchase-order number given when accepting.
  quote_id uuid unique,
  purchase_order text check (char_length(purchase_order) between 1 and 60),
  -- An order with booked lines whose service asks a deposit (docs/bookings.md): what checkout
  -- asked (every line in full but the booked ones' deposits; 0 when nothing was due then), less
  -- than the total. Null: the whole total was due at checkout. The balance (total - deposit) is
  -- paid later under its own reference (the order's, with "-B"), by bank transfer with a proof or
  -- online, and is paid once balance_paid_at is set (085_payments.sql).
  deposit numeric(12, 2),
  balance_reference text unique check (balance_reference ~ '^ORD-[0-9]{1,6}-B$'),
  balance_proof_path text check (char_length(balance_proof_path) <= 500),
  balance_payment_method text check (balance_payment_method in ('bank_transfer', 'payfast')),
  balance_paid_at timestamptz,
  constraint orders_deposit_shape check (
    (deposit is null and balance_reference is null and balance_proof_path is null
     and balance_payment_method is null and balance_paid_at is null)
    or (deposit is not null and deposit >= 0 and deposit < total and balance_reference is not null)),
  constraint orders_fulfilment_shape check (
    (fulfilment_method is null and fulfilment_day is null and delivery_address is null and delivery_area_id is null and delivery_fee = 0)
    or (fulfilment_method = 'collection' and fulfilment_day is not null and delivery_address is null and delivery_area_id is null and delivery_fee = 0)
    or (fulfilment_method = 'delivery' and fulfilment_day is not null and delivery_address is not null and delivery_area_id is not null))
);

create index orders_user_created_idx on public.orders (user_id, created_at desc);
create index orders_customer_email_idx on public.orders (lower(customer_email));
create index orders_proof_path_idx on public.orders (proof_path) where proof_path is not null;
create index orders_created_id_idx on public.orders (created_at desc, id desc);
create index orders_status_created_id_idx on public.orders (status, created_at desc, id desc);
create index orders_paid_created_idx on public.orders (created_at) include (total, id)
  where status in ('pending_delivery', 'complete');
create index orders_unpaid_created_idx on public.orders (created_at) include (total)
  where status = 'pending_payment';
-- The balances still due (the sales overview's money outstanding).
create index orders_balance_due_idx on public.orders (created_at) include (total, deposit)
  where deposit is not null and balance_paid_at is null and status in ('pending_delivery', 'complete');
create index orders_fulfilment_day_idx on public.orders (fulfilment_day) where fulfilment_day is not null;
create index orders_delivery_area_idx on public.orders (delivery_area_id) where delivery_area_id is not null;

alter table public.orders enable row level security;
-- orders: created only through place_order(); the owner and admins read; admins set status.
create policy "orders: read own or admin" on public.orders
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "orders: admin update" on public.orders
  for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

revoke update on public.orders from anon, authenticated;
grant all on public.orders to service_role;
grant update (status) on public.orders to authenticated;

-- public.order_items --------------------------------------------------------------------------
-- Triggers (they fire in name order within each timing):
--   order_items_sales_rollup: after insert or delete, per row -> public.sales_rollup_order_items() (110_overview.sql)
--   order_items_sales_rollup_update: after update of order_id, product_id, product_name, unit_price, quantity, is_delivery_fee, per row -> public.sales_rollup_order_items() (110_overview.sql)
create table public.order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  -- Null once the product is deleted; the name and price as at purchase stay.
  product_id uuid references public.products (id) on delete set null,
  product_name text not null,
  unit_price numeric(12, 2) not null check (unit_price > 0),
  quantity integer not null check (quantity >= 1),
  image_path text,
  -- The delivery fee's line (no product): what counts goods (the sales overview's products and
  -- business lines) leaves it out, and the fee can be counted apart from goods.
  is_delivery_fee boolean not null default false,
  -- The variant sold (null once it is deleted, and on the fee's line). product_name is the line's
  -- name as sold, with the variant's choices ("Golf shirt — L / Navy"); option_values and sku
  -- are the variant's as at purchase.
  variant_id uuid references public.product_variants (id) on delete set null,
  option_values text[] not null default '{}',
  sku text,
  -- Units taken from the variant's counted stock by place_order (0: not counted), given back
  -- when the order is cancelled (orders_stock_on_status).
  stock_taken integer not null default 0 check (stock_taken >= 0),
  -- The personalisation as sold, in the fields' order: [{"label", "kind": "text"|"file",
  -- "value": text or file path, "price"}]; [] for none. unit_price includes the prices.
  personalisation jsonb not null default '[]' check (jsonb_typeof(personalisation) = 'array'),
  constraint order_items_fee_shape check (not is_delivery_fee or product_id is null),
  -- The slot sold, for a bookable service's line (its booking: 095_bookings.sql).
  slot_starts_at timestamptz,
  slot_ends_at timestamptz,
  constraint order_items_slot_shape check ((slot_starts_at is null) = (slot_ends_at is null) and (slot_starts_at is null or slot_starts_at < slot_ends_at)),
  -- A booked line's part asked at checkout when its service's deposit is less than the full price
  -- (a percentage, or 0 for none: public.booking_deposit()); null: all of the line at checkout.
  deposit numeric(12, 2) check (deposit >= 0),
  -- A booked line cancelled on its own while the rest of its order goes on (cancel_booking(),
  -- 095_bookings.sql): when, and what of its deposit the shop kept (paid, and cancelled past its
  -- refund rule). The order's total and deposit no longer count the rest of the line, invoices
  -- issued after it leave it out, and what was paid for it and not kept has been credited.
  cancelled_at timestamptz,
  kept numeric(12, 2) not null default 0 check (kept >= 0)
);

create index order_items_order_idx on public.order_items (order_id);
create index order_items_product_idx on public.order_items (product_id);
create index order_items_variant_idx on public.order_items (variant_id) where variant_id is not null;

alter table public.order_items enable row level security;
create policy "order_items: read with the order" on public.order_items
  for select to authenticated
  using (exists (
    select 1 from public.orders o
    where o.id = order_id and (o.user_id = (select auth.uid()) or (select public.is_admin()))
  ));

grant all on public.order_items to anon, authenticated, service_role;

-- public.order_status_events ------------------------------------------------------------------
-- Every status change of an order: who, when, from, to. Written by a trigger only.
create table public.order_status_events (
  id bigint generated always as identity primary key,
  order_id uuid not null references public.orders (id) on delete cascade,
  from_status public.order_status,
  to_status public.order_status not null,
  changed_by uuid references public.profiles (id) on delete set null,
  changed_at timestamptz not null default now(),
  -- Why, when the shop made the change rather than a person ("not paid within 7 days", "Paid by
  -- PayFast"); null for a person's change (changed_by says who).
  reason text check (char_length(reason) <= 200)
);

create index order_status_events_order_idx on public.order_status_events (order_id, changed_at);

alter table public.order_status_events enable row level security;
create policy "order_status_events: read with the order" on public.order_status_events
  for select to authenticated
  using (exists (
    select 1 from public.orders o
    where o.id = order_id and (o.user_id = (select auth.uid()) or (select public.is_admin()))
  ));

revoke insert, update, delete on public.order_status_events from anon, authenticated;
grant all on public.order_status_events to service_role;

-- updated_at follows every change of an order.
create function public.touch_order() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
revoke execute on function public.touch_order() from public, anon, authenticated;
grant execute on function public.touch_order() to service_role;
create trigger orders_touch
  before update on public.orders
  for each row execute function public.touch_order();

-- The status history, written in the change's own transaction. Security definer: nobody may
-- write order_status_events directly. A change made by the shop itself is marked by the
-- transaction-local setting shop.status_reason, which only the shop's own functions set and clear
-- again before they return (cancel_unpaid_orders() below, record_online_payment() in
-- 085_payments.sql): then nobody is named as having made it, even when an admin's request ran
-- the function, and the reason is kept.
create function public.record_order_status() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_reason text := nullif(current_setting('shop.status_reason', true), '');
begin
  if tg_op = 'INSERT' then
    insert into public.order_status_events (order_id, from_status, to_status, changed_by)
    values (new.id, null, new.status, new.user_id);
  elsif new.status is distinct from old.status then
    insert into public.order_status_events (order_id, from_status, to_status, changed_by, reason)
    values (new.id, old.status, new.status, case when v_reason is null then (select auth.uid()) end, v_reason);
  end if;
  return null;
end
$$;
revoke execute on function public.record_order_status() from public, anon, authenticated;
grant execute on function public.record_order_status() to service_role;
create trigger orders_record_status
  after insert or update of status on public.orders
  for each row execute function public.record_order_status();

-- cancel_unpaid_orders(days): cancels every order still pending_payment that was placed more
-- than `days` days ago; 0 means never. Returns how many it cancelled.
--
-- Who may call it: an admin, as themselves, in their own transaction (the server runs it before
-- the admin's order list loads), or the server's own privileged connection (its timer, with no
-- caller claims) and service_role. Security definer because it changes orders no matter who is
-- signed in and writes history no API role may write; it does nothing else.
--
-- Idempotent: it touches only orders still pending_payment, so a second run finds nothing. Runs
-- from several server processes (or an admin's page load and the timer) wait for each other on
-- an advisory lock rather than lock the same rows in different orders. The reason is set with
-- set_config() in the body, never in a SET clause: Supabase refuses a custom parameter there
-- (postgres is not a superuser, docs/architecture.md#supabase-is-not-a-superuser).
create function public.cancel_unpaid_orders(p_days integer) returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  -- A signed-in caller (or anon) must be an admin; without claims it is the server itself.
  if (select auth.uid()) is not null or coalesce((select auth.role()), '') in ('anon', 'authenticated') then
    if not (select public.is_admin()) then
      raise exception 'admins_only' using errcode = '42501';
    end if;
  end if;
  if p_days is null or p_days < 0 then
    raise exception 'invalid_days' using errcode = '22023';
  end if;
  if p_days = 0 then
    return 0;
  end if;

  perform pg_advisory_xact_lock(hashtextextended('cancel_unpaid_orders', 0));
  -- Read by record_order_status() for the rows updated below, and cleared again below, so a later
  -- change in the same transaction (an admin's) is not taken for the shop's. An error aborts the
  -- transaction (or its savepoint), which undoes the setting with it.
  perform set_config(
    'shop.status_reason',
    format('not paid within %s day%s', p_days, case when p_days = 1 then '' else 's' end),
    true
  );
  update public.orders
  set status = 'cancelled'
  where status = 'pending_payment'
    and created_at < now() - make_interval(days => p_days);
  get diagnostics v_count = row_count;
  perform set_config('shop.status_reason', '', true);
  return v_count;
end
$$;
revoke execute on function public.cancel_unpaid_orders(integer) from public, anon;
grant execute on function public.cancel_unpaid_orders(integer) to authenticated, service_role;

-- Counted stock follows the order's status as delivery capacity does (090_fulfilment.sql): a
-- cancelled order gives back what place_order took; an order taken out of cancelled takes it
-- again, and is refused ('not_enough_stock') if it is no longer there, so stock never goes below
-- zero. Variants no longer counted are left alone. In variant order, as place_order takes them.
create function public.order_stock_on_status() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_line record;
begin
  if new.status = 'cancelled' and old.status <> 'cancelled' then
    update public.product_variants v
    set stock = v.stock + t.quantity
    from (select i.variant_id, sum(i.stock_taken)::integer as quantity
          from public.order_items i where i.order_id = new.id and i.stock_taken > 0
          group by i.variant_id) t
    where v.id = t.variant_id and v.stock is not null;
  elsif old.status = 'cancelled' and new.status <> 'cancelled' then
    for v_line in
      select i.variant_id, sum(i.stock_taken)::integer as quantity
      from public.order_items i where i.order_id = new.id and i.stock_taken > 0
      group by i.variant_id order by i.variant_id
    loop
      update public.product_variants v set stock = v.stock - v_line.quantity
      where v.id = v_line.variant_id and v.stock >= v_line.quantity;
      if not found and exists (
        select 1 from public.product_variants v where v.id = v_line.variant_id and v.stock is not null
      ) then
        raise exception 'not_enough_stock';
      end if;
    end loop;
  end if;
  return null;
end
$$;
revoke execute on function public.order_stock_on_status() from public, anon, authenticated;
grant execute on function public.order_stock_on_status() to service_role;
create trigger orders_stock_on_status
  after update of status on public.orders
  for each row when (old.status is distinct from new.status)
  execute function public.order_stock_on_status();

-- Live updates: local modes forward these notifications to the subscribers allowed to see them
-- (the owner; admins for orders). The payload holds ids only, never the row.
create function public.notify_shop_change() returns trigger
language plpgsql security invoker set search_path = ''
as $$
declare
  v_row record;
begin
  if tg_op = 'DELETE' then
    v_row := old;
  else
    v_row := new;
  end if;
  perform pg_notify('shop_changes', json_build_object(
    'table', tg_table_name,
    'op', tg_op,
    'id', v_row.id,
    'user_id', v_row.user_id
  )::text);
  return null;
end
$$;
revoke execute on function public.notify_shop_change() from public, anon, authenticated;
grant execute on function public.notify_shop_change() to service_role;
create trigger orders_notify
  after insert or update or delete on public.orders
  for each row execute function public.notify_shop_change();
create trigger cart_items_notify
  after insert or update or delete on public.cart_items
  for each row execute function public.notify_shop_change();

-- Supabase Realtime publishes changes of these tables to subscribed browsers (RLS-filtered).
alter publication supabase_realtime add table public.orders, public.cart_items;
