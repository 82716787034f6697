-- Bookings (20261210…) and quotes (20261209…) were built side by side: each migration set
-- these two from its own starting point, so the later one left out the other's part. Their
-- current definitions, as in supabase/schemas/: every template of both in the outbox's check,
-- and the invoice that names a quote and a purchase-order number and is issued per payment.
alter table public.mail_outbox drop constraint mail_outbox_template_check;
alter table public.mail_outbox add constraint mail_outbox_template_check check (template in (
    'order_received', 'status_changed', 'order_cancelled_unpaid', 'new_order', 'contact_message', 'account_deleted',
    'payment_received', 'payment_notice', 'password_reset', 'email_change_confirm', 'email_change_notice',
    'low_stock', 'back_in_stock', 'whatsapp_stopped', 'booking_changed', 'booking_reminder',
    'quote_requested', 'quote_sent', 'quote_change_asked'));

create or replace function private.issue_invoice(p_order_id uuid, p_part text default 'full') returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_settings public.invoice_settings;
  v_order public.orders;
  v_company text := '';
  v_address text := '';
  v_buyer_vat text := '';
  v_serial bigint;
  v_amounts numeric[];
  v_vats numeric[];
  v_lines jsonb;
  v_vat numeric(12, 2) := 0;
  v_rate numeric := private.vat_rate_percent();
  v_document text;
  v_number text;
  v_quote text;
  v_id uuid;
  v_total numeric(12, 2);
  v_deposit_invoice jsonb;
begin
  if p_part is null or p_part not in ('full', 'deposit', 'balance') then
    raise exception 'invoice_part_invalid';
  end if;
  select * into v_settings from public.invoice_settings where id;
  if not found then
    -- No settings saved or seeded yet (the start-up seed creates them): a payment is never
    -- refused for it. A plain invoice, as for a shop not registered for VAT, in the demo name.
    v_settings.vat_registered := false;
    v_settings.vat_number := '';
    v_settings.legal_name := 'Our World Services';
    v_settings.legal_address := coalesce(
      (select nullif(btrim(contact_address), '') from public.shop_settings where id), 'South Africa');
    v_settings.invoice_prefix := 'INV-';
  end if;
  select * into v_order from public.orders where id = p_order_id;
  select p.invoice_company, p.invoice_address, p.invoice_vat_number
    into v_company, v_address, v_buyer_vat
    from public.profiles p where p.id = v_order.user_id;
  -- An order accepted from a quote (105_quotes.sql) names the quote, and the customer's
  -- purchase-order number when they gave one.
  select r.number into v_quote
    from public.quotes q join public.quote_requests r on r.id = q.request_id
    where q.id = v_order.quote_id;

  select array_agg(l.amount order by l.id),
         jsonb_agg(jsonb_build_object(
           'description', case when l.split then case p_part when 'deposit' then 'Deposit: ' else 'Balance: ' end else '' end
                          || public.order_line_label(l.product_name, l.personalisation),
           'quantity', case when l.split then 1 else l.quantity end,
           'unitPrice', (case when l.split then l.amount else l.unit_price end)::text, 'amount', l.amount::text) order by l.id),
         sum(l.amount)
    into v_amounts, v_lines, v_total
    from (
      select i.id, i.product_name, i.personalisation, i.quantity, i.unit_price,
             p_part <> 'full' and i.deposit is not null as split,
             (case p_part
                when 'full' then i.unit_price * i.quantity
                when 'deposit' then coalesce(i.deposit, i.unit_price * i.quantity)
                else i.unit_price * i.quantity - coalesce(i.deposit, i.unit_price * i.quantity)
              end)::numeric(12, 2) as amount
      from public.order_items i where i.order_id = p_order_id
    ) l
    where l.amount > 0;
  if coalesce(v_total, 0) = 0 then
    return null;
  end if;
  if p_part = 'balance' then
    select jsonb_build_object('number', i.number, 'issuedAt', i.issued_at) into v_deposit_invoice
      from public.invoices i
      where i.order_id = p_order_id and i.kind = 'invoice' and i.snapshot ->> 'part' = 'deposit'
      order by i.serial desc
      limit 1;
  end if;

  if v_settings.vat_registered then
    v_vats := private.vat_allocation(v_amounts, v_rate);
    select jsonb_agg(l.line || jsonb_build_object('vat', v_vats[l.n]::text) order by l.n)
      into v_lines
      from jsonb_array_elements(v_lines) with ordinality as l (line, n);
    select coalesce(sum(x), 0) into v_vat from unnest(v_vats) as x;
    v_document := 'tax_invoice';
  else
    v_document := 'invoice';
  end if;

  update public.invoice_counters set last_number = last_number + 1 where kind = 'invoice'
    returning last_number into v_serial;
  v_number := v_settings.invoice_prefix || lpad(v_serial::text, 6, '0');

  insert into public.invoices (order_id, kind, serial, number, total, vat, snapshot)
  values (p_order_id, 'invoice', v_serial, v_number, v_total, v_vat, jsonb_build_object(
    'version', 1,
    'document', v_document,
    'full', v_settings.vat_registered and v_total > private.full_tax_invoice_above(),
    'number', v_number,
    'issuedAt', now(),
    'orderReference', v_order.reference,
    'orderDate', v_order.created_at,
    'quoteNumber', v_quote,
    'purchaseOrder', v_order.purchase_order,
    'seller', jsonb_build_object(
      'name', v_settings.legal_name, 'address', v_settings.legal_address,
      'vatNumber', case when v_settings.vat_registered then v_settings.vat_number end),
    'buyer', jsonb_build_object(
      'name', v_order.customer_name, 'email', v_order.customer_email,
      'company', coalesce(v_company, ''), 'address', coalesce(v_address, ''), 'vatNumber', coalesce(v_buyer_vat, '')),
    'vatRate', case when v_settings.vat_registered then v_rate end,
    'lines', coalesce(v_lines, '[]'::jsonb),
    'total', v_total::text,
    'vat', v_vat::text,
    'exclusive', (v_total - v_vat)::numeric(12, 2)::text)
    || case when p_part = 'full' then '{}'::jsonb else jsonb_build_object('part', p_part) end
    || case when v_deposit_invoice is null then '{}'::jsonb else jsonb_build_object('depositInvoice', v_deposit_invoice) end)
  returning id into v_id;
  return v_id;
end
$$;
