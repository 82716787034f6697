-- Bookable services (issue 38, ARCHITECTURE §21; docs/bookings.md): a product sold as a time slot
-- (an office clean, a laundry collection, a consultation) rather than as units.
--
-- * bookable_services: one row per bookable product (all its variants share the settings and the
--   capacity): duration, buffer after each booking, how many bookings can run at once, minimum
--   notice (hours), how far ahead (days), where it happens, the deposit (none, a percentage or
--   the full price) and until how many hours before the start it is refunded. Everyone reads;
--   admins write.
-- * bookable_service_hours: per weekday, the hours a service can be booked when they differ from
--   the shop's opening hours (030_settings.sql); a weekday without a row follows the shop.
-- * cart_items.slot_starts_at / hold_expires_at: a cart line of a bookable service is one slot,
--   held until hold_expires_at (quantity 1). The unique key of a line moves to partial indexes:
--   one line per variant and personalisation without a slot (as before), one per variant and
--   slot with one. Customers cannot write the slot themselves (the insert policy refuses a slot
--   and a bookable product; add_booking_to_cart() takes the hold).
-- * bookings: what place_order makes of a held slot, one per order line; read by their customer
--   and admins, written only by functions. The index serves the free-slot computation.
--
-- Supersedes public.add_variant_to_cart(uuid, jsonb) of 20261206000300_personalisation.sql (its
-- conflict target, and a bookable product needs its slot) and the cart_items insert policy.

-- public.bookable_services --------------------------------------------------------------------
create table public.bookable_services (
  product_id uuid primary key references public.products (id) on delete cascade,
  duration_minutes integer not null check (duration_minutes between 15 and 1440),
  buffer_minutes integer not null default 0 check (buffer_minutes between 0 and 480),
  capacity integer not null default 1 check (capacity between 1 and 100),
  notice_hours integer not null default 24 check (notice_hours between 0 and 720),
  horizon_days integer not null default 30 check (horizon_days between 1 and 365),
  location text not null default 'customer_address' check (location in ('customer_address', 'shop', 'online')),
  deposit text not null default 'none' check (deposit in ('none', 'percent', 'full')),
  deposit_percent smallint check (deposit_percent between 1 and 99),
  refund_until_hours integer not null default 48 check (refund_until_hours between 0 and 720),
  constraint bookable_services_deposit_shape check ((deposit = 'percent') = (deposit_percent is not null))
);

alter table public.bookable_services enable row level security;
create policy "bookable_services: read all" on public.bookable_services
  for select to anon, authenticated using (true);
create policy "bookable_services: admin insert" on public.bookable_services
  for insert to authenticated with check ((select public.is_admin()));
create policy "bookable_services: admin update" on public.bookable_services
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "bookable_services: admin delete" on public.bookable_services
  for delete to authenticated using ((select public.is_admin()));

revoke all on public.bookable_services from anon, authenticated;
grant select on public.bookable_services to anon, authenticated;
grant insert, update, delete on public.bookable_services to authenticated;
grant all on public.bookable_services to service_role;

create trigger bookable_services_catalogue_changes
  after insert or update or delete or truncate on public.bookable_services
  for each statement execute function public.notify_catalogue_change();

-- public.bookable_service_hours ---------------------------------------------------------------
create table public.bookable_service_hours (
  product_id uuid not null references public.bookable_services (product_id) on delete cascade,
  weekday smallint not null check (weekday between 1 and 7),
  open boolean not null default true,
  opens time not null default '09:00',
  closes time not null default '16:00',
  primary key (product_id, weekday),
  constraint bookable_service_hours_order check (opens < closes)
);

alter table public.bookable_service_hours enable row level security;
create policy "bookable_service_hours: read all" on public.bookable_service_hours
  for select to anon, authenticated using (true);
create policy "bookable_service_hours: admin insert" on public.bookable_service_hours
  for insert to authenticated with check ((select public.is_admin()));
create policy "bookable_service_hours: admin update" on public.bookable_service_hours
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "bookable_service_hours: admin delete" on public.bookable_service_hours
  for delete to authenticated using ((select public.is_admin()));

revoke all on public.bookable_service_hours from anon, authenticated;
grant select on public.bookable_service_hours to anon, authenticated;
grant insert, update, delete on public.bookable_service_hours to authenticated;
grant all on public.bookable_service_hours to service_role;

create trigger bookable_service_hours_catalogue_changes
  after insert or update or delete or truncate on public.bookable_service_hours
  for each statement execute function public.notify_catalogue_change();

-- public.cart_items: a held slot ------------------------------------------------------------
alter table public.cart_items
  add column slot_starts_at timestamptz,
  add column hold_expires_at timestamptz,
  add constraint cart_items_slot_shape check (
    (slot_starts_at is null) = (hold_expires_at is null) and (slot_starts_at is null or quantity = 1));
alter table public.cart_items drop constraint cart_items_user_variant_key;
create unique index cart_items_user_variant_key on public.cart_items (user_id, variant_id, personalisation)
  where slot_starts_at is null;
create unique index cart_items_user_slot_key on public.cart_items (user_id, variant_id, slot_starts_at)
  where slot_starts_at is not null;
-- Live holds of a service, read by the free-slot computation.
create index cart_items_holds_idx on public.cart_items (product_id, slot_starts_at)
  include (hold_expires_at, user_id) where slot_starts_at is not null;

drop policy "cart_items: insert own, available products" on public.cart_items;
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

-- As in 20261206000300_personalisation.sql, with the conflict target of a line without a slot,
-- and a bookable service refused without its slot ('slot_required': add_booking_to_cart).
create or replace function public.add_variant_to_cart(p_variant_id uuid, p_personalisation jsonb) returns public.cart_items
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

-- public.order_items: the slot sold ---------------------------------------------------------
alter table public.order_items
  add column slot_starts_at timestamptz,
  add column slot_ends_at timestamptz,
  add constraint order_items_slot_shape check ((slot_starts_at is null) = (slot_ends_at is null) and (slot_starts_at is null or slot_starts_at < slot_ends_at));

-- public.bookings -----------------------------------------------------------------------------
create table public.bookings (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  order_item_id uuid not null unique references public.order_items (id) on delete cascade,
  -- Kept (as null) after the customer deletes their account, as the order is.
  user_id uuid references public.profiles (id) on delete set null,
  -- Null once the product is deleted (no slot of it is offered any more).
  product_id uuid references public.products (id) on delete set null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  -- ends_at plus the service's buffer as at booking: the slot is taken until then.
  free_at timestamptz not null,
  status text not null default 'booked' check (status in ('booked', 'cancelled')),
  location text not null check (location in ('customer_address', 'shop', 'online')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint bookings_times check (starts_at < ends_at and ends_at <= free_at)
);

-- The free-slot computation reads a service's booked slots by start time, and their end.
create index bookings_product_starts_idx on public.bookings (product_id, starts_at) include (free_at)
  where status = 'booked';
create index bookings_order_idx on public.bookings (order_id);
create index bookings_user_idx on public.bookings (user_id, starts_at);

alter table public.bookings enable row level security;
create policy "bookings: read own or admin" on public.bookings
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));

revoke all on public.bookings from anon, authenticated;
grant select on public.bookings to authenticated;
grant all on public.bookings to service_role;
