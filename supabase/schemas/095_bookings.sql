-- Bookings (src/server/bookings/; docs/bookings.md): what place_order (100_checkout.sql) makes of
-- a held slot of a bookable service (020_catalogue.sql), and the free times the shop offers.

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
