-- Shop settings, set by the owner (ARCHITECTURE §15): the bank account customers pay into, the
-- business's contact details, the information officer named in the privacy notice, the days
-- after which unpaid orders are cancelled, and the address that receives order notices.
--
-- Two singleton tables, split by who may read them:
-- * public.shop_settings holds what the shop publishes anyway: checkout shows the bank account to
--   every customer, the footer and contact page show the contact details on every page, the
--   privacy notice names the information officer, and the unpaid-order policy is told to the
--   customer. Everyone reads it (anon too, as the storefront's cached reads run as anon).
-- * public.shop_private_settings holds what is not published: the inbox that receives order
--   notices (often the owner's own address) and who last changed the settings. Admins only.
-- One table with everything readable would put the owner's private inbox and an admin's user id
-- in every visitor's reach through Supabase's Data API; column privileges cannot tell an admin
-- from a customer (both are `authenticated`), so the split is what keeps them apart.
--
-- Each is one row at most (`id boolean primary key check (id)`). The rows are created on first
-- start from SHOP_*/BANK_* in the local modes (src/server/db/seed.ts) and by supabase/seed.sql on
-- Supabase; the app reads the environment's values while a row is missing and creates it on the
-- first save, so admins may insert as well as update. Nobody deletes.

create table public.shop_settings (
  id boolean primary key default true check (id),
  bank_account_name text not null check (char_length(btrim(bank_account_name)) between 1 and 100),
  bank_name text not null check (char_length(btrim(bank_name)) between 1 and 100),
  -- South African account numbers: digits only, as the bank prints them without spaces.
  bank_account_number text not null check (bank_account_number ~ '^[0-9]{6,16}$'),
  bank_branch_code text not null check (bank_branch_code ~ '^[0-9]{6}$'),
  -- The names SA banks give accounts (src/lib/constants.ts BANK_ACCOUNT_TYPES).
  bank_account_type text not null check (bank_account_type in ('Cheque', 'Current', 'Savings', 'Transmission')),
  contact_phone text not null check (char_length(btrim(contact_phone)) between 1 and 30),
  contact_email text not null check (char_length(contact_email) between 3 and 255 and contact_email like '%_@_%'),
  -- Optional: a business run from home need not publish its address.
  contact_address text not null default '' check (char_length(contact_address) <= 200),
  contact_hours text not null default '' check (char_length(contact_hours) <= 100),
  information_officer_name text not null check (char_length(btrim(information_officer_name)) between 1 and 100),
  information_officer_email text not null
    check (char_length(information_officer_email) between 3 and 255 and information_officer_email like '%_@_%'),
  -- 0: unpaid orders are never cancelled.
  unpaid_order_days integer not null default 7 check (unpaid_order_days between 0 and 90),
  updated_at timestamptz not null default now()
);
alter table public.shop_settings enable row level security;

create table public.shop_private_settings (
  id boolean primary key default true check (id),
  orders_email text not null check (char_length(orders_email) between 3 and 255 and orders_email like '%_@_%'),
  updated_at timestamptz not null default now(),
  -- The admin who saved last (every save writes both rows); null for the seed.
  updated_by uuid references public.profiles (id) on delete set null
);
alter table public.shop_private_settings enable row level security;

-- When and by whom: stamped here, so no caller can write them (they are not granted, below).
create function public.stamp_shop_settings() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
create function public.stamp_shop_private_settings() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  new.updated_at := now();
  new.updated_by := (select auth.uid());
  return new;
end
$$;
revoke execute on function public.stamp_shop_settings() from public, anon, authenticated;
revoke execute on function public.stamp_shop_private_settings() from public, anon, authenticated;
grant execute on function public.stamp_shop_settings(), public.stamp_shop_private_settings() to service_role;

create trigger shop_settings_stamp
  before insert or update on public.shop_settings
  for each row execute function public.stamp_shop_settings();
create trigger shop_private_settings_stamp
  before insert or update on public.shop_private_settings
  for each row execute function public.stamp_shop_private_settings();

-- The published settings are in the storefront's cache and the visitors' kept pages (footer,
-- contact page, checkout): every server process drops both when they change, as for the
-- catalogue. The private row is never cached.
create trigger shop_settings_catalogue_changes
  after insert or update or delete or truncate on public.shop_settings
  for each statement execute function public.notify_catalogue_change();

-- Policies ------------------------------------------------------------------------------------
create policy "shop_settings: read all" on public.shop_settings
  for select to anon, authenticated using (true);
create policy "shop_settings: admin insert" on public.shop_settings
  for insert to authenticated with check ((select public.is_admin()));
create policy "shop_settings: admin update" on public.shop_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

create policy "shop_private_settings: admin read" on public.shop_private_settings
  for select to authenticated using ((select public.is_admin()));
create policy "shop_private_settings: admin insert" on public.shop_private_settings
  for insert to authenticated with check ((select public.is_admin()));
create policy "shop_private_settings: admin update" on public.shop_private_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

-- Grants (explicit, as in 20261123000000_explicit_grants.sql) -------------------------------
-- Revoked first: where Supabase's default privileges are on, the tables start with ALL for the
-- API roles; these are new tables, so narrowing them changes nobody's existing access.
revoke all on public.shop_settings, public.shop_private_settings from anon, authenticated;
grant all on public.shop_settings, public.shop_private_settings to service_role;

grant select on public.shop_settings to anon, authenticated;
-- The editable columns only: id keeps its default, updated_at is the trigger's.
grant insert (bank_account_name, bank_name, bank_account_number, bank_branch_code, bank_account_type,
              contact_phone, contact_email, contact_address, contact_hours,
              information_officer_name, information_officer_email, unpaid_order_days),
      update (bank_account_name, bank_name, bank_account_number, bank_branch_code, bank_account_type,
              contact_phone, contact_email, contact_address, contact_hours,
              information_officer_name, information_officer_email, unpaid_order_days)
  on public.shop_settings to authenticated;

grant select on public.shop_private_settings to authenticated;
grant insert (orders_email), update (orders_email) on public.shop_private_settings to authenticated;
