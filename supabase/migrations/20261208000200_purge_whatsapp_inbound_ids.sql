-- The ids of inbound WhatsApp messages (075_messaging.sql) go after 30 days with the other expired records
-- (supabase/schemas/120_privacy.sql).
create or replace function public.purge_expired_records()
returns table (proof_path text)
language plpgsql security definer set search_path = ''
as $$
begin
  -- Several processes run this; one at a time is enough.
  perform pg_advisory_xact_lock(hashtextextended('purge_expired_records', 0));
  delete from public.contact_messages where created_at < now() - interval '12 months';
  delete from public.mail_outbox where created_at < now() - interval '12 months';
  -- Inbound WhatsApp message ids, kept only to take Meta's repeated deliveries once (it retries
  -- for up to 7 days).
  delete from private.whatsapp_inbound_seen where received_at < now() - interval '30 days';
  return query
    delete from public.orders o
    where o.created_at < now() - interval '5 years'
    returning o.proof_path;
end
$$;
