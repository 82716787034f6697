-- Record keeping (src/server/privacy/): what the privacy notice promises.

-- What the privacy notice promises (src/lib/business-content.ts, POPIA's limit on keeping
-- records): orders and their proofs of payment are deleted 5 years after the order (SARS's record
-- keeping), contact messages and the mails in the outbox 12 months after they were written, the
-- ids of inbound WhatsApp messages after 30 days. Run
-- daily by each server process (src/server/privacy/retention.ts) on its own connection; the
-- proofs' files are removed by the server through the storage port, from the paths returned here.
create function public.purge_expired_records()
returns table (proof_path text, balance_proof_path text)
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
    returning o.proof_path, o.balance_proof_path;
end
$$;
revoke execute on function public.purge_expired_records() from public, anon, authenticated;
grant execute on function public.purge_expired_records() to service_role;

-- Personalisation files (060_storage.sql) no cart line, no order line and no quote request names, a week after they
-- were uploaded: a logo uploaded and never added, a line removed, an order gone after its 5 years.
-- Returns their paths; the server removes them through the storage port (src/server/privacy/).
create function public.unused_personalisation_files()
returns table (path text)
language sql stable security definer set search_path = ''
as $$
  with named as (
    select c.personalisation ->> k as path
    from public.cart_items c, jsonb_object_keys(c.personalisation) k
    union
    select e ->> 'value'
    from public.order_items i, jsonb_array_elements(i.personalisation) e
    where i.personalisation <> '[]' and e ->> 'kind' = 'file'
    union
    select q.path from public.quote_files q
  )
  select o.name
  from storage.objects o
  where o.bucket_id = 'personalisation'
    and o.created_at < now() - interval '7 days'
    and not exists (select 1 from named n where n.path = o.name)
$$;
revoke execute on function public.unused_personalisation_files() from public, anon, authenticated;
grant execute on function public.unused_personalisation_files() to service_role;
