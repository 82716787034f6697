-- The contact form (src/server/contact/): anyone sends a message; admins read it and are told of
-- it as it arrives (live), like a new order.

-- public.contact_messages ---------------------------------------------------------------------
-- Anyone may send; only admins read, mark as read and delete.
-- Triggers (they fire in name order within each timing):
--   contact_messages_mail: after insert, per row -> public.mail_contact_message() (070_mail.sql)
--   contact_messages_notify: after insert, per row -> public.notify_contact_message()
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

revoke update on public.contact_messages from anon, authenticated;
grant all on public.contact_messages to service_role;
grant update (read_at) on public.contact_messages to authenticated;

-- Local modes: the insert notifies on the channel the orders and cart triggers use. The payload
-- holds ids only and no user_id on purpose: the sender (a visitor, or a signed-in customer) must
-- not hear of it; only admins do (mayHear in src/server/platform/adapters/local/local-live.ts).
-- Security invoker like notify_shop_change(): pg_notify needs no privilege, and a trigger runs its
-- function whatever EXECUTE the inserting role holds.
create function public.notify_contact_message() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  perform pg_notify('shop_changes', json_build_object(
    'table', tg_table_name,
    'op', tg_op,
    'id', new.id
  )::text);
  return null;
end
$$;
revoke execute on function public.notify_contact_message() from public, anon, authenticated;
grant execute on function public.notify_contact_message() to service_role;
-- Inserts only: marking read or deleting a message is the admin's own doing, nothing to announce.
create trigger contact_messages_notify
  after insert on public.contact_messages
  for each row execute function public.notify_contact_message();

-- Supabase mode: Realtime sends each insert only to subscribers whose RLS lets them read the row,
-- and "contact_messages: admin read" lets admins alone.
alter publication supabase_realtime add table public.contact_messages;
