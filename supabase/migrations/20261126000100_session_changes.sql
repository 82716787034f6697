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
