-- Accounts: profiles (one per auth user), who is an admin, and the local account-recovery tokens
-- (src/server/auth/, src/server/profile/).

-- A profile's role, read by the server from public.profiles (never from the client or the
-- token): customers are 'user'; 'admin' is granted by `npm run admin -- grant <email>`.
create type public.user_role as enum ('user', 'admin');

-- public.profiles -----------------------------------------------------------------------------
-- One per auth user, made by the sign-up trigger (handle_new_user below) and gone with the
-- account. The role is read from here on the server, never from the client or the token.
-- Triggers (they fire in name order within each timing):
--   profiles_mail_deleted: after delete, per row -> public.mail_account_deleted() (070_mail.sql)
--   profiles_session_changes: after delete or update, per row -> public.notify_profile_change()
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  full_name text check (char_length(full_name) <= 100),
  -- Follows the account's e-mail (private.sync_profile_email() below).
  email text check (char_length(email) <= 255),
  role public.user_role not null default 'user',
  avatar_path text check (char_length(avatar_path) <= 500),
  created_at timestamptz not null default now(),
  -- The buyer's details for a full tax invoice (080_invoices.sql): given at checkout or in the profile.
  invoice_company text not null default '' check (char_length(invoice_company) <= 120),
  invoice_address text not null default '' check (char_length(invoice_address) <= 300),
  invoice_vat_number text not null default '' check (invoice_vat_number = '' or invoice_vat_number ~ '^4[0-9]{9}$'),
  -- "Keep this address for next time": written by place_order only (100_checkout.sql). The
  -- reference to public.delivery_areas is added in 090_fulfilment.sql, where the areas are made.
  delivery_address text check (char_length(delivery_address) <= 300),
  delivery_area_id uuid
);

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

alter table public.profiles enable row level security;
-- profiles: a user sees and edits their own; admins see everyone's.
create policy "profiles: read own or admin" on public.profiles
  for select to authenticated
  using (id = (select auth.uid()) or (select public.is_admin()));
create policy "profiles: update own" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

revoke update on public.profiles from anon, authenticated;
grant all on public.profiles to service_role;
grant update (full_name, avatar_path, invoice_company, invoice_address, invoice_vat_number) on public.profiles to authenticated;

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
grant execute on function public.handle_new_user() to service_role;
create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

-- Every server process keeps the signed-in users it looked up lately (their profile: name, role,
-- picture) for a few seconds, so a signed-in page or call does not read the profile each time
-- (ARCHITECTURE §13). A change to a profile is announced on channel 'session_changes' as
-- 'user:<id>', which every process LISTENs to, so a new name, picture or role (e.g. `npm run
-- admin -- revoke`) shows everywhere at once. (The local modes' compatibility schema announces
-- sessions and accounts on the same channel.)
create function public.notify_profile_change() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  perform pg_notify('session_changes', 'user:' || old.id::text);
  return null;
end
$$;
revoke execute on function public.notify_profile_change() from public, anon, authenticated;
grant execute on function public.notify_profile_change() to service_role;
create trigger profiles_session_changes
  after update or delete on public.profiles
  for each row execute function public.notify_profile_change();

-- private.account_tokens ----------------------------------------------------------------------
-- Local modes: a password reset or an e-mail change is a single-use link whose token is kept only
-- as its SHA-256 hash, here, where no API role can reach it. In Supabase mode Supabase Auth keeps
-- its own tokens and the table stays empty.
create table private.account_tokens (
  -- sha-256 of the random token, hex; the token itself is only in the mail.
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  kind text not null check (kind in ('password_reset', 'email_change')),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- The address an e-mail change moves to (null for a password reset).
  new_email text check (new_email is null or char_length(new_email) between 3 and 255),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  check ((kind = 'email_change') = (new_email is not null))
);

create index account_tokens_user_idx on private.account_tokens (user_id, kind);

alter table private.account_tokens enable row level security;

revoke all on private.account_tokens from public, anon, authenticated;

-- A profile's e-mail follows its account's (a local e-mail change, or Supabase Auth's).
create function private.sync_profile_email() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.email is distinct from old.email and new.email is not null then
    update public.profiles set email = new.email where id = new.id;
  end if;
  return null;
end
$$;
revoke execute on function private.sync_profile_email() from public, anon, authenticated;
create trigger users_sync_profile_email
  after update of email on auth.users
  for each row execute function private.sync_profile_email();
