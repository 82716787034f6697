-- Payment confirmed on WhatsApp, and quotes there too (issue 40). An admin marking a bank transfer
-- received now tells the status mail how much was paid (WhatsApp sends it as "payment
-- confirmed"); an online payment's notice carries the order's delivery or collection day; and a
-- sent quote is a customer notice (WhatsApp while they consent, e-mail otherwise).

create or replace function public.mail_order_status() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_reason text := nullif(current_setting('shop.status_reason', true), '');
  v_days integer := substring(v_reason from 'within ([0-9]+) day')::integer;
  v_document jsonb;
begin
  if new.status is not distinct from old.status or v_reason like 'Paid by %' then
    return null;
  end if;
  select jsonb_build_object('id', i.id, 'number', i.number, 'kind', i.kind) into v_document
    from public.invoices i
    where i.order_id = new.id and i.issued_at = now()
    order by i.kind = 'credit_note' desc, i.serial desc
    limit 1;
  if new.status = 'cancelled' and v_days is not null then
    perform private.enqueue_customer_notice(new.user_id, new.customer_email, 'order_cancelled_unpaid', jsonb_build_object(
      'customerName', new.customer_name, 'reference', new.reference, 'total', new.total, 'days', v_days));
  else
    perform private.enqueue_customer_notice(new.user_id, new.customer_email, 'status_changed', jsonb_build_object(
      'customerName', new.customer_name, 'reference', new.reference, 'status', new.status)
      || case when new.fulfilment_method is null then '{}'::jsonb
         else jsonb_build_object('fulfilment', jsonb_build_object('method', new.fulfilment_method, 'day', new.fulfilment_day)) end
      || case when v_document is null then '{}'::jsonb else jsonb_build_object('document', v_document) end
      -- An admin marked a bank transfer received: on WhatsApp this is "payment confirmed".
      || case when old.status = 'pending_payment' and new.status = 'pending_delivery'
         then jsonb_build_object('paidAmount', coalesce(new.deposit, new.total)) else '{}'::jsonb end);
  end if;
  return null;
end
$$;

create or replace function public.record_online_payment(
  p_provider text, p_provider_payment_id text, p_order_id uuid, p_amount numeric, p_details jsonb, p_reference text default null)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_order public.orders;
  v_outcome text;
  v_id uuid;
  v_label text := case p_provider when 'payfast' then 'PayFast' else p_provider end;
  v_balance boolean;
  v_part jsonb;
begin
  -- Concurrent copies of one notification queue here; the first writes, the rest find its row.
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  v_balance := p_reference is not null and p_reference is not distinct from v_order.balance_reference;
  if p_reference is not null and not v_balance and p_reference <> v_order.reference then
    raise exception 'order_unknown';
  end if;
  if p_amount is distinct from (case when v_balance then v_order.total - v_order.deposit else coalesce(v_order.deposit, v_order.total) end) then
    raise exception 'amount_mismatch';
  end if;
  if v_balance then
    v_outcome := case when v_order.status in ('pending_delivery', 'complete') and v_order.balance_paid_at is null then 'applied' else 'refund_due' end;
  else
    v_outcome := case when v_order.status = 'pending_payment' then 'applied' else 'refund_due' end;
  end if;

  insert into public.payments (order_id, provider, provider_payment_id, amount, outcome, details, part)
  values (p_order_id, p_provider, p_provider_payment_id, p_amount, v_outcome, coalesce(p_details, '{}'::jsonb),
          case when v_balance then 'balance' else 'order' end)
  on conflict (provider, provider_payment_id) do nothing
  returning id into v_id;
  if v_id is null then
    return 'duplicate';
  end if;

  if v_outcome = 'applied' and v_balance then
    perform private.pay_balance(p_order_id, p_provider);
  elsif v_outcome = 'applied' then
    -- The history says who: the payment, not a person (record_order_status reads the reason).
    perform set_config('shop.status_reason', 'Paid by ' || v_label, true);
    update public.orders set status = 'pending_delivery', payment_method = p_provider where id = p_order_id;
    perform set_config('shop.status_reason', '', true);
  else
    -- The order stays as it is; touching it tells Order Management (live) that it has news.
    update public.orders set updated_at = now() where id = p_order_id;
  end if;

  v_part := case when v_balance then '{"part": "balance"}'::jsonb
                 when v_order.deposit is not null then '{"part": "deposit"}'::jsonb
                 else '{}'::jsonb end;
  perform private.enqueue_customer_notice(v_order.user_id, v_order.customer_email, 'payment_received', jsonb_build_object(
    'customerName', v_order.customer_name, 'reference', v_order.reference, 'amount', p_amount,
    'provider', v_label, 'refundDue', v_outcome = 'refund_due') || v_part
    || case when v_balance or v_order.fulfilment_method is null then '{}'::jsonb
       else jsonb_build_object('fulfilment', jsonb_build_object('method', v_order.fulfilment_method, 'day', v_order.fulfilment_day)) end);
  perform private.enqueue_mail(private.shop_notice_address(), 'payment_notice', jsonb_build_object(
    'customerName', v_order.customer_name, 'customerEmail', v_order.customer_email, 'reference', v_order.reference,
    'amount', p_amount, 'provider', v_label, 'providerPaymentId', p_provider_payment_id, 'refundDue', v_outcome = 'refund_due') || v_part);
  return v_outcome;
end
$$;

create or replace function public.send_quote(p_quote_id uuid)
returns public.quotes
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_quote public.quotes;
  v_request public.quote_requests;
  v_serial bigint;
begin
  if not (select public.is_admin()) then
    raise exception 'admins_only' using errcode = '42501';
  end if;
  select r.* into v_request from public.quote_requests r
  where r.id = (select q.request_id from public.quotes q where q.id = p_quote_id)
  for update;
  if not found then
    raise exception 'quote_unknown';
  end if;
  select * into v_quote from public.quotes q where q.id = p_quote_id for update;
  if v_quote.status <> 'draft' then
    raise exception 'quote_not_draft';
  end if;
  if exists (select 1 from public.quotes q where q.request_id = v_request.id and q.status = 'accepted') then
    raise exception 'quote_closed';
  end if;
  if v_quote.valid_until < private.quote_today() then
    raise exception 'quote_validity_invalid';
  end if;
  if not exists (select 1 from public.quote_lines l where l.quote_id = v_quote.id) then
    raise exception 'quote_lines_invalid';
  end if;

  if v_request.number is null then
    update public.quote_counters set last_number = last_number + 1 where id
      returning last_number into v_serial;
    -- Six digits at least (lpad alone would cut a seventh off).
    update public.quote_requests set serial = v_serial, number = 'Q-' || case when v_serial > 999999 then v_serial::text else lpad(v_serial::text, 6, '0') end
    where id = v_request.id
    returning * into v_request;
  end if;
  update public.quotes set status = 'superseded', updated_at = now()
  where request_id = v_request.id and status = 'sent';
  update public.quotes set status = 'sent', sent_at = now(), updated_at = now()
  where id = v_quote.id
  returning * into v_quote;
  update public.quote_requests set change_asked_at = null, updated_at = now() where id = v_request.id;

  perform private.enqueue_customer_notice(v_request.user_id, v_request.customer_email, 'quote_sent', jsonb_build_object(
    'requestId', v_request.id, 'customerName', v_request.customer_name, 'number', v_request.number,
    'version', v_quote.version, 'total', v_quote.total, 'validUntil', v_quote.valid_until));
  return v_quote;
end
$$;
