create function public.purge_expired_records()
returns table (proof_path text)
language plpgsql security definer set search_path = ''
as $$
begin
  -- Several processes run this; one at a time is enough.
  perform pg_advisory_xact_lock(hashtextextended('purge_expired_records', 0));
  delete from public.contact_messages where created_at < now() - interval '12 months';
  delete from public.mail_outbox where created_at < now() - interval '12 months';
  return query
    delete from public.orders o
    where o.created_at < now() - interval '5 years'
    returning o.proof_path;
end
$$;
revoke execute on function public.purge_expired_records() from public, anon, authenticated;
grant execute on function public.purge_expired_records() to service_role;
