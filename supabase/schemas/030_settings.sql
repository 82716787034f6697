-- Shop settings set by the owner (src/server/settings/): two singleton tables split by who may
-- read them (one table with everything readable would put the owner's private inbox and an
-- admin's user id in every visitor's reach through Supabase's Data API), and the opening hours.

-- When and by whom: stamped here, so no caller can write them (they are not granted, below).
create function public.stamp_shop_settings() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
revoke execute on function public.stamp_shop_settings() from public, anon, authenticated;
grant execute on function public.stamp_shop_settings() to service_role;

create function public.stamp_shop_private_settings() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  new.updated_at := now();
  new.updated_by := (select auth.uid());
  return new;
end
$$;
revoke execute on function public.stamp_shop_private_settings() from public, anon, authenticated;
grant execute on function public.stamp_shop_private_settings() to service_role;

-- public.shop_settings ------------------------------------------------------------------------
-- What the shop publishes anyway (the bank account at checkout, contact details, the information
-- officer, the unpaid-order policy): one row at most, everyone reads it. The rows are created on
-- first start from SHOP_*/BANK_* (src/server/db/seed.ts) or by supabase/seed.sql; admins may
-- insert as well as update, nobody deletes.
-- Triggers (they fire in name order within each timing):
--   shop_settings_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change() (020_catalogue.sql)
--   shop_settings_stamp: before insert or update, per row -> public.stamp_shop_settings()
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
  -- Optional: a business run from home need not publish its address. (The hours are
  -- public.opening_hours, below.)
  contact_address text not null default '' check (char_length(contact_address) <= 200),
  information_officer_name text not null check (char_length(btrim(information_officer_name)) between 1 and 100),
  information_officer_email text not null
    check (char_length(information_officer_email) between 3 and 255 and information_officer_email like '%_@_%'),
  -- 0: unpaid orders are never cancelled.
  unpaid_order_days integer not null default 7 check (unpaid_order_days between 0 and 90),
  updated_at timestamptz not null default now()
);

alter table public.shop_settings enable row level security;
create policy "shop_settings: read all" on public.shop_settings
  for select to anon, authenticated using (true);
create policy "shop_settings: admin insert" on public.shop_settings
  for insert to authenticated with check ((select public.is_admin()));
create policy "shop_settings: admin update" on public.shop_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

revoke all on public.shop_settings from anon, authenticated;
grant all on public.shop_settings to service_role;
grant select on public.shop_settings to anon, authenticated;
grant insert (bank_account_name, bank_name, bank_account_number, bank_branch_code, bank_account_type, contact_phone, contact_email, contact_address, information_officer_name, information_officer_email, unpaid_order_days),
      update (bank_account_name, bank_name, bank_account_number, bank_branch_code, bank_account_type, contact_phone, contact_email, contact_address, information_officer_name, information_officer_email, unpaid_order_days) on public.shop_settings to authenticated;

create trigger shop_settings_stamp
  before insert or update on public.shop_settings
  for each row execute function public.stamp_shop_settings();
-- The published settings are in the storefront's cache and the visitors' kept pages (footer,
-- contact page, checkout): every server process drops both when they change, as for the
-- catalogue. The private row is never cached.
create trigger shop_settings_catalogue_changes
  after insert or update or delete or truncate on public.shop_settings
  for each statement execute function public.notify_catalogue_change();

-- public.shop_private_settings ----------------------------------------------------------------
-- What is not published (the order-notice inbox, who saved last): admins only. Column privileges
-- cannot tell an admin from a customer (both are `authenticated`), so the split is what keeps
-- them apart.
-- Triggers (they fire in name order within each timing):
--   shop_private_settings_stamp: before insert or update, per row -> public.stamp_shop_private_settings()
create table public.shop_private_settings (
  id boolean primary key default true check (id),
  orders_email text not null check (char_length(orders_email) between 3 and 255 and orders_email like '%_@_%'),
  updated_at timestamptz not null default now(),
  -- The admin who saved last (every save writes both rows); null for the seed.
  updated_by uuid references public.profiles (id) on delete set null
);

alter table public.shop_private_settings enable row level security;
create policy "shop_private_settings: admin read" on public.shop_private_settings
  for select to authenticated using ((select public.is_admin()));
create policy "shop_private_settings: admin insert" on public.shop_private_settings
  for insert to authenticated with check ((select public.is_admin()));
create policy "shop_private_settings: admin update" on public.shop_private_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

revoke all on public.shop_private_settings from anon, authenticated;
grant all on public.shop_private_settings to service_role;
grant select on public.shop_private_settings to authenticated;
grant insert (orders_email), update (orders_email) on public.shop_private_settings to authenticated;

create trigger shop_private_settings_stamp
  before insert or update on public.shop_private_settings
  for each row execute function public.stamp_shop_private_settings();

-- public.opening_hours ------------------------------------------------------------------------
-- Per ISO weekday (1 Monday ... 7 Sunday), open or closed and from-to (South African time). The
-- days checkout offers and the hours customers read both come from these rows, so they cannot
-- disagree.
-- Triggers (they fire in name order within each timing):
--   opening_hours_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change() (020_catalogue.sql)
--   opening_hours_stamp: before insert or update, per row -> public.stamp_shop_settings()
create table public.opening_hours (
  weekday smallint primary key check (weekday between 1 and 7),
  open boolean not null default false,
  opens time not null default '09:00',
  closes time not null default '16:00',
  updated_at timestamptz not null default now(),
  constraint opening_hours_order check (opens < closes)
);

alter table public.opening_hours enable row level security;
create policy "opening_hours: read all" on public.opening_hours
  for select to anon, authenticated using (true);
create policy "opening_hours: admin update" on public.opening_hours
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

revoke all on public.opening_hours from anon, authenticated;
grant all on public.opening_hours to service_role;
grant select on public.opening_hours to anon, authenticated;
grant update (open, opens, closes) on public.opening_hours to authenticated;

create trigger opening_hours_stamp
  before insert or update on public.opening_hours
  for each row execute function public.stamp_shop_settings();
create trigger opening_hours_catalogue_changes
  after insert or update or delete or truncate on public.opening_hours
  for each statement execute function public.notify_catalogue_change();

-- The seven rows are always there (admins only update them): on a new database Monday to Friday
-- open 09:00-16:00, Saturday and Sunday closed.
insert into public.opening_hours (weekday, open, opens, closes)
values (1, true, '09:00', '16:00'), (2, true, '09:00', '16:00'), (3, true, '09:00', '16:00'),
       (4, true, '09:00', '16:00'), (5, true, '09:00', '16:00'), (6, false, '09:00', '16:00'),
       (7, false, '09:00', '16:00')
on conflict (weekday) do nothing;

-- The opening hours as the mails word them: [{"weekday": 1, "opens": "09:00", "closes": "16:00"}, ...],
-- open days only (src/lib/opening-hours.ts words them).
create function private.opening_hours_json() returns jsonb
language sql stable security definer set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('weekday', h.weekday, 'opens', to_char(h.opens, 'HH24:MI'), 'closes', to_char(h.closes, 'HH24:MI'))
                            order by h.weekday) filter (where h.open), '[]'::jsonb)
  from public.opening_hours h;
$$;
revoke execute on function private.opening_hours_json() from public, anon, authenticated;
