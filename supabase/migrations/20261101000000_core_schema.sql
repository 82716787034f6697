-- Core schema: enums, tables, indexes, row-level security and the profile-on-sign-up trigger.
-- Runs unchanged on Supabase, on a plain PostgreSQL server and on PGlite (local modes first
-- apply the compatibility schema that provides auth.*, storage.* and the API roles).

-- Enums ---------------------------------------------------------------------------------------
create type public.user_role as enum ('user', 'admin');
create type public.order_status as enum ('pending_payment', 'pending_delivery', 'complete', 'cancelled');

-- Profiles ------------------------------------------------------------------------------------
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  full_name text check (char_length(full_name) <= 100),
  email text check (char_length(email) <= 255),
  role public.user_role not null default 'user',
  avatar_path text check (char_length(avatar_path) <= 500),
  created_at timestamptz not null default now()
);
alter table public.profiles enable row level security;

-- Catalogue -----------------------------------------------------------------------------------
create table public.categories (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(btrim(name)) between 1 and 60 and name = btrim(name)),
  created_at timestamptz not null default now()
);
-- Names differing only in case are the same category to a shopper.
create unique index categories_name_ci_key on public.categories (lower(name));
alter table public.categories enable row level security;

create table public.products (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 120),
  description text not null default '' check (char_length(description) <= 2000),
  price numeric(12, 2) not null check (price > 0),
  image_path text check (char_length(image_path) <= 500),
  category_id uuid not null references public.categories (id) on delete restrict,
  available boolean not null default true,
  created_at timestamptz not null default now()
);
-- The shop lists available products newest first, optionally per category.
create index products_available_created_idx on public.products (created_at desc) where available;
create index products_category_created_idx on public.products (category_id, created_at desc);
alter table public.products enable row level security;

-- Cart ----------------------------------------------------------------------------------------
-- A surrogate id keeps realtime DELETE events (which carry only the primary key and are not
-- filtered by RLS) free of whose cart held which product.
create table public.cart_items (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  product_id uuid not null references public.products (id) on delete cascade,
  quantity integer not null default 1 check (quantity between 1 and 10000),
  added_at timestamptz not null default now(),
  unique (user_id, product_id)
);
create index cart_items_product_idx on public.cart_items (product_id);
alter table public.cart_items enable row level security;

-- Orders --------------------------------------------------------------------------------------
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
  unique (user_id, idempotency_key)
);
create index orders_user_created_idx on public.orders (user_id, created_at desc);
create index orders_status_created_idx on public.orders (status, created_at desc);
create index orders_created_idx on public.orders (created_at desc);
create index orders_customer_email_idx on public.orders (lower(customer_email));
create index orders_proof_path_idx on public.orders (proof_path) where proof_path is not null;
alter table public.orders enable row level security;

create table public.order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  -- Null once the product is deleted; the name and price as at purchase stay.
  product_id uuid references public.products (id) on delete set null,
  product_name text not null,
  unit_price numeric(12, 2) not null check (unit_price > 0),
  quantity integer not null check (quantity >= 1),
  image_path text
);
create index order_items_order_idx on public.order_items (order_id);
create index order_items_product_idx on public.order_items (product_id);
alter table public.order_items enable row level security;

-- Every status change of an order: who, when, from, to. Written by a trigger only.
create table public.order_status_events (
  id bigint generated always as identity primary key,
  order_id uuid not null references public.orders (id) on delete cascade,
  from_status public.order_status,
  to_status public.order_status not null,
  changed_by uuid references public.profiles (id) on delete set null,
  changed_at timestamptz not null default now()
);
create index order_status_events_order_idx on public.order_status_events (order_id, changed_at);
alter table public.order_status_events enable row level security;

-- Contact form --------------------------------------------------------------------------------
create table public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  email text not null check (char_length(email) between 3 and 255),
  phone text check (char_length(phone) <= 30),
  message text not null check (char_length(btrim(message)) between 1 and 5000),
  user_id uuid default auth.uid() references public.profiles (id) on delete set null,
  read_at timestamptz,
  created_at timestamptz not null default now()
);
create index contact_messages_created_idx on public.contact_messages (created_at desc);
alter table public.contact_messages enable row level security;

-- Helpers -------------------------------------------------------------------------------------
-- Security definer so that policies on profiles can ask it without recursing into themselves.
-- It reveals only whether the caller is an admin.
create function public.is_admin() returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.profiles
    where id = (select auth.uid()) and role = 'admin'
  )
$$;
revoke execute on function public.is_admin() from public, anon;
grant execute on function public.is_admin() to authenticated, service_role;

-- Profile on sign-up (Supabase's documented pattern). Kept simple: a failing trigger blocks
-- sign-up, so over-long names are cut rather than refused.
create function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.profiles (id, email, full_name)
  values (
    new.id,
    left(new.email, 255),
    left(nullif(btrim(new.raw_user_meta_data ->> 'full_name'), ''), 100)
  );
  return new;
end
$$;
revoke execute on function public.handle_new_user() from public, anon, authenticated;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

-- Column privileges: API roles may change only these columns; policies decide the rows.
revoke update on public.profiles from anon, authenticated;
grant update (full_name, avatar_path) on public.profiles to authenticated;
revoke update on public.cart_items from anon, authenticated;
grant update (quantity) on public.cart_items to authenticated;
revoke update on public.orders from anon, authenticated;
grant update (status) on public.orders to authenticated;
revoke update on public.contact_messages from anon, authenticated;
grant update (read_at) on public.contact_messages to authenticated;
revoke insert, update, delete on public.order_status_events from anon, authenticated;

-- Policies ------------------------------------------------------------------------------------
-- profiles: a user sees and edits their own; admins see everyone's.
create policy "profiles: read own or admin" on public.profiles
  for select to authenticated
  using (id = (select auth.uid()) or (select public.is_admin()));
create policy "profiles: update own" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

-- categories and products: everyone reads; admins write.
create policy "categories: read all" on public.categories
  for select to anon, authenticated using (true);
create policy "categories: admin insert" on public.categories
  for insert to authenticated with check ((select public.is_admin()));
create policy "categories: admin update" on public.categories
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "categories: admin delete" on public.categories
  for delete to authenticated using ((select public.is_admin()));

create policy "products: read all" on public.products
  for select to anon, authenticated using (true);
create policy "products: admin insert" on public.products
  for insert to authenticated with check ((select public.is_admin()));
create policy "products: admin update" on public.products
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "products: admin delete" on public.products
  for delete to authenticated using ((select public.is_admin()));

-- cart_items: only the owner, and only available products go in.
create policy "cart_items: read own" on public.cart_items
  for select to authenticated using (user_id = (select auth.uid()));
create policy "cart_items: insert own, available products" on public.cart_items
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.products p where p.id = product_id and p.available)
  );
create policy "cart_items: update own" on public.cart_items
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "cart_items: delete own" on public.cart_items
  for delete to authenticated using (user_id = (select auth.uid()));

-- orders: created only through place_order(); the owner and admins read; admins set status.
create policy "orders: read own or admin" on public.orders
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "orders: admin update" on public.orders
  for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create policy "order_items: read with the order" on public.order_items
  for select to authenticated
  using (exists (
    select 1 from public.orders o
    where o.id = order_id and (o.user_id = (select auth.uid()) or (select public.is_admin()))
  ));

create policy "order_status_events: read with the order" on public.order_status_events
  for select to authenticated
  using (exists (
    select 1 from public.orders o
    where o.id = order_id and (o.user_id = (select auth.uid()) or (select public.is_admin()))
  ));

-- contact_messages: anyone may send; only admins read and mark as read.
create policy "contact_messages: anyone sends" on public.contact_messages
  for insert to anon, authenticated
  with check (read_at is null and user_id is not distinct from (select auth.uid()));
create policy "contact_messages: admin read" on public.contact_messages
  for select to authenticated using ((select public.is_admin()));
create policy "contact_messages: admin update" on public.contact_messages
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "contact_messages: admin delete" on public.contact_messages
  for delete to authenticated using ((select public.is_admin()));
