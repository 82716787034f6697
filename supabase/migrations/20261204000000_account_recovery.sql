-- Account recovery and e-mail changes (issue 34). In the local modes the shop plays Supabase
-- Auth's part: a password reset or an e-mail change is a single-use link whose token is kept
-- only as its SHA-256 hash, here, in the private schema, which no API role can reach (no usage,
-- no grants). The token and its mail are written in one transaction by the server's own
-- connection. In Supabase mode Supabase Auth keeps its own tokens and sends its own mails; the
-- table stays empty.

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

-- The mails: the reset link, the link to confirm a new address, and the notice to the old one.
alter table public.mail_outbox drop constraint mail_outbox_template_check;
alter table public.mail_outbox add constraint mail_outbox_template_check check (template in (
  'order_received', 'status_changed', 'order_cancelled_unpaid', 'new_order', 'contact_message', 'account_deleted',
  'payment_received', 'payment_notice', 'password_reset', 'email_change_confirm', 'email_change_notice'));
