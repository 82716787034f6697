-- The catalogue (src/server/catalogue/, src/server/products/): categories and products. Everyone
-- reads; admins write. Every change is announced so each server process drops its caches.

-- Every change to the catalogue (and to what the storefront publishes: shop settings, payment
-- settings, opening hours) is announced on channel 'catalogue_changes', which every server
-- process LISTENs to: each drops its catalogue cache and its kept pages, whichever process (or
-- SQL session) made the change.
create function public.notify_catalogue_change() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  perform pg_notify('catalogue_changes', tg_table_name);
  return null;
end
$$;
revoke execute on function public.notify_catalogue_change() from public, anon, authenticated;
grant execute on function public.notify_catalogue_change() to service_role;

-- public.categories ---------------------------------------------------------------------------
-- The business lines: everyone reads the catalogue, admins write it.
-- Triggers (they fire in name order within each timing):
--   categories_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change()
create table public.categories (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(btrim(name)) between 1 and 60 and name = btrim(name)),
  created_at timestamptz not null default now(),
  -- Units of this category the shop can fulfil per day; null: no limit (090_fulfilment.sql).
  daily_limit integer check (daily_limit between 1 and 100000)
);

-- Names differing only in case are the same category to a shopper.
create unique index categories_name_ci_key on public.categories (lower(name));

alter table public.categories enable row level security;
-- categories and products: everyone reads; admins write.
create policy "categories: read all" on public.categories
  for select to anon, authenticated using (true);
create policy "categories: admin insert" on public.categories
  for insert to authenticated with check ((select public.is_admin()));
create policy "categories: admin update" on public.categories
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "categories: admin delete" on public.categories
  for delete to authenticated using ((select public.is_admin()));

grant all on public.categories to anon, authenticated, service_role;

create trigger categories_catalogue_changes
  after insert or update or delete or truncate on public.categories
  for each statement execute function public.notify_catalogue_change();

-- public.products -----------------------------------------------------------------------------
-- Triggers (they fire in name order within each timing):
--   products_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change()
create table public.products (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 120),
  description text not null default '' check (char_length(description) <= 2000),
  price numeric(12, 2) not null check (price > 0),
  image_path text check (char_length(image_path) <= 500),
  category_id uuid not null references public.categories (id) on delete restrict,
  available boolean not null default true,
  created_at timestamptz not null default now(),
  -- Days before the product can be delivered or collected (090_fulfilment.sql's day offer).
  lead_time_days integer not null default 0 check (lead_time_days between 0 and 60)
);

-- The shop lists available products newest first, optionally per category.
create index products_available_created_idx on public.products (created_at desc) where available;
create index products_category_created_idx on public.products (category_id, created_at desc);

alter table public.products enable row level security;
create policy "products: read all" on public.products
  for select to anon, authenticated using (true);
create policy "products: admin insert" on public.products
  for insert to authenticated with check ((select public.is_admin()));
create policy "products: admin update" on public.products
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "products: admin delete" on public.products
  for delete to authenticated using ((select public.is_admin()));

grant all on public.products to anon, authenticated, service_role;

create trigger products_catalogue_changes
  after insert or update or delete or truncate on public.products
  for each statement execute function public.notify_catalogue_change();
