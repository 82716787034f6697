-- Admins are told of a new contact message as it arrives, like a new order (issue 17 item 5),
-- through the same live port: LISTEN/NOTIFY in the local modes, Supabase Realtime in supabase mode.

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
