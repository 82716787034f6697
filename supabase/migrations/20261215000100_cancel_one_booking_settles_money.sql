-- A booking cancelled on its own while the rest of its order goes on now settles its money
-- (docs/bookings.md): its line is marked cancelled (order_items.cancelled_at, and the deposit
-- kept past the refund rule), each invoice that billed it gets a credit note for the line alone
-- (invoices.credits_item_id; an invoice may now have several credit notes), and the order's total
-- and deposit drop, so the balance due does. Invoices name each line's order line (itemId), leave
-- cancelled lines out, and the credit note of a cancelled order credits what is left of each.

alter table public.order_items
  add column cancelled_at timestamptz,
  add column kept numeric(12, 2) not null default 0 check (kept >= 0);

alter table public.invoices drop constraint invoices_credits_invoice_id_key;
alter table public.invoices
  add column credits_item_id uuid references public.order_items (id) on delete cascade,
  add constraint invoices_credits_item_shape check (credits_item_id is null or kind = 'credit_note');
create index invoices_credits_idx on public.invoices (credits_invoice_id) where credits_invoice_id is not null;

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
           'itemId', l.id,
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
      from public.order_items i where i.order_id = p_order_id and i.cancelled_at is null
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


drop function private.issue_credit_note(uuid);
create function private.issue_credit_note(p_invoice_id uuid, p_item_id uuid default null) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_invoice public.invoices;
  v_item public.order_items;
  v_lines jsonb;
  v_total numeric(12, 2);
  v_vat numeric(12, 2) := 0;
  v_rate numeric;
  v_description text;
  v_prefix text;
  v_serial bigint;
  v_number text;
  v_id uuid;
begin
  select * into v_invoice from public.invoices where id = p_invoice_id;
  if not exists (select 1 from jsonb_array_elements(v_invoice.snapshot -> 'lines') l where not l ? 'itemId') then
    select jsonb_agg(l.line order by l.n), sum((l.line ->> 'amount')::numeric), coalesce(sum((l.line ->> 'vat')::numeric), 0)
      into v_lines, v_total, v_vat
      from jsonb_array_elements(v_invoice.snapshot -> 'lines') with ordinality as l (line, n)
      where case when p_item_id is null
              then not exists (select 1 from public.order_items i
                               where i.id = (l.line ->> 'itemId')::uuid and i.cancelled_at is not null)
              else (l.line ->> 'itemId')::uuid = p_item_id end;
  elsif p_item_id is null and not exists (
          select 1 from public.invoices c where c.credits_invoice_id = v_invoice.id and c.credits_item_id is not null)
        and not (v_invoice.snapshot ->> 'part' is not distinct from 'deposit' and exists (
          select 1 from public.order_items i where i.order_id = v_invoice.order_id and i.kept > 0)) then
    v_lines := v_invoice.snapshot -> 'lines';
    v_total := v_invoice.total;
    v_vat := v_invoice.vat;
  else
    if p_item_id is null then
      v_total := v_invoice.total
        - coalesce((select sum(c.total) from public.invoices c where c.credits_invoice_id = v_invoice.id), 0)
        - case when v_invoice.snapshot ->> 'part' = 'deposit'
            then coalesce((select sum(i.kept) from public.order_items i where i.order_id = v_invoice.order_id), 0) else 0 end;
      v_description := 'What was left of invoice ' || v_invoice.number;
    else
      select * into v_item from public.order_items where id = p_item_id;
      v_total := case v_invoice.snapshot ->> 'part'
                   when 'deposit' then coalesce(v_item.deposit, v_item.unit_price * v_item.quantity)
                   when 'balance' then v_item.unit_price * v_item.quantity - coalesce(v_item.deposit, v_item.unit_price * v_item.quantity)
                   else v_item.unit_price * v_item.quantity
                 end;
      v_description := case when v_item.deposit is not null and v_invoice.snapshot ? 'part'
                         then case v_invoice.snapshot ->> 'part' when 'deposit' then 'Deposit: ' else 'Balance: ' end else '' end
                       || public.order_line_label(v_item.product_name, v_item.personalisation);
    end if;
    v_rate := (v_invoice.snapshot ->> 'vatRate')::numeric;
    if v_rate is not null and v_total > 0 then
      v_vat := (private.vat_allocation(array[v_total], v_rate))[1];
    end if;
    v_lines := jsonb_build_array(jsonb_build_object('description', v_description, 'quantity', 1,
      'unitPrice', v_total::text, 'amount', v_total::text)
      || case when v_rate is null then '{}'::jsonb else jsonb_build_object('vat', v_vat::text) end);
  end if;
  if coalesce(v_total, 0) <= 0 then
    return null;
  end if;
  v_prefix := coalesce((select invoice_prefix from public.invoice_settings where id), 'INV-');
  update public.invoice_counters set last_number = last_number + 1 where kind = 'credit_note'
    returning last_number into v_serial;
  v_number := v_prefix || 'CN' || lpad(v_serial::text, 6, '0');
  insert into public.invoices (order_id, kind, serial, number, credits_invoice_id, credits_item_id, total, vat, snapshot)
  values (v_invoice.order_id, 'credit_note', v_serial, v_number, v_invoice.id, p_item_id, v_total, v_vat,
    v_invoice.snapshot || jsonb_build_object(
      'document', 'credit_note',
      'number', v_number,
      'issuedAt', now(),
      'credits', jsonb_build_object('number', v_invoice.number, 'issuedAt', v_invoice.issued_at),
      'lines', v_lines,
      'total', v_total::text,
      'vat', v_vat::text,
      'exclusive', (v_total - v_vat)::numeric(12, 2)::text)
    || case when v_total = v_invoice.total then '{}'::jsonb else jsonb_build_object('partial', true) end)
  returning id into v_id;
  return v_id;
end
$$;

revoke execute on function private.issue_credit_note(uuid, uuid) from public, anon, authenticated;

create or replace function public.invoice_paid_order() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_open uuid;
  v_refundable boolean;
begin
  if new.status is not distinct from old.status then
    return null;
  end if;
  if new.status in ('pending_delivery', 'complete') and old.status not in ('pending_delivery', 'complete')
     and not exists (
       select 1 from public.invoices i
       where i.order_id = new.id and i.kind = 'invoice'
         and not exists (select 1 from public.invoices c where c.credits_invoice_id = i.id and c.credits_item_id is null)) then
    perform private.issue_invoice(new.id, case when new.deposit is null then 'full' else 'deposit' end);
  elsif new.status = 'cancelled' then
    v_refundable := new.deposit is null or private.deposit_refundable(new.id);
    for v_open in
      select i.id from public.invoices i
      where i.order_id = new.id and i.kind = 'invoice'
        and not exists (select 1 from public.invoices c where c.credits_invoice_id = i.id and c.credits_item_id is null)
        and (v_refundable or i.snapshot ->> 'part' is distinct from 'deposit')
      order by i.serial
    loop
      perform private.issue_credit_note(v_open);
    end loop;
  end if;
  return null;
end
$$;


create or replace function private.deposit_refundable(p_order_id uuid) returns boolean
language sql stable set search_path = ''
as $$
  select not exists (
    select 1 from public.bookings b
    join public.order_items i on i.id = b.order_item_id
    where b.order_id = p_order_id and i.cancelled_at is null
      and now() > b.starts_at - make_interval(hours => b.refund_until_hours))
$$;


create function private.cancel_order_line(p_item_id uuid, p_refundable boolean) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_item public.order_items;
  v_order public.orders;
  v_invoice public.invoices;
  v_price numeric(12, 2);
  v_kept numeric(12, 2) := 0;
  v_total numeric(12, 2);
  v_deposit numeric(12, 2);
begin
  select * into v_item from public.order_items where id = p_item_id and cancelled_at is null for update;
  if not found then
    return;
  end if;
  select * into v_order from public.orders where id = v_item.order_id for update;
  v_price := v_item.unit_price * v_item.quantity;
  for v_invoice in
    select i.* from public.invoices i
    where i.order_id = v_order.id and i.kind = 'invoice'
      and not exists (select 1 from public.invoices c where c.credits_invoice_id = i.id and c.credits_item_id is null)
      and (not exists (select 1 from jsonb_array_elements(i.snapshot -> 'lines') l where not l ? 'itemId')
           or exists (select 1 from jsonb_array_elements(i.snapshot -> 'lines') l where l ->> 'itemId' = p_item_id::text))
    order by i.serial
  loop
    if v_invoice.snapshot ->> 'part' = 'deposit' and not p_refundable then
      v_kept := v_kept + coalesce(v_item.deposit, v_price);
    else
      perform private.issue_credit_note(v_invoice.id, p_item_id);
    end if;
  end loop;
  update public.order_items set cancelled_at = now(), kept = v_kept, stock_taken = 0 where id = p_item_id;
  if v_item.stock_taken > 0 then
    update public.product_variants set stock = stock + v_item.stock_taken where id = v_item.variant_id and stock is not null;
  end if;
  v_total := v_order.total - (v_price - v_kept);
  v_deposit := v_order.deposit - (coalesce(v_item.deposit, v_price) - v_kept);
  if v_deposit is not null and v_deposit >= v_total then
    update public.orders
    set total = v_total, deposit = null, balance_reference = null, balance_proof_path = null,
        balance_payment_method = null, balance_paid_at = null
    where id = v_order.id;
  else
    update public.orders set total = v_total, deposit = v_deposit where id = v_order.id;
  end if;
end
$$;

revoke execute on function private.cancel_order_line(uuid, boolean) from public, anon, authenticated;

create or replace function public.cancel_booking(p_booking_id uuid) returns public.bookings
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean := coalesce((select public.is_admin()), false);
  v_booking public.bookings;
  v_notice integer;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_booking from public.bookings b
  where b.id = p_booking_id and (b.user_id = v_uid or v_admin)
  for update;
  if not found then
    raise exception 'booking_not_found';
  end if;
  if v_booking.status <> 'booked' then
    raise exception 'booking_cancelled';
  end if;
  select s.notice_hours into v_notice from public.bookable_services s where s.product_id = v_booking.product_id;
  if not v_admin and v_booking.starts_at < now() + make_interval(hours => coalesce(v_notice, 0)) then
    raise exception 'booking_too_late';
  end if;
  if v_booking.product_id is not null then
    perform private.lock_booking_spans(array[v_booking.product_id], array[v_booking.starts_at], array[v_booking.free_at]);
  end if;
  update public.bookings set status = 'cancelled', updated_at = now()
  where id = v_booking.id
  returning * into v_booking;
  perform private.booking_notice(v_booking.id, 'booking_changed');
  if not exists (select 1 from public.bookings b where b.order_id = v_booking.order_id and b.status = 'booked')
     and not exists (
       select 1 from public.order_items i
       where i.order_id = v_booking.order_id and i.slot_starts_at is null and not i.is_delivery_fee) then
    update public.orders set status = 'cancelled' where id = v_booking.order_id and status <> 'cancelled';
  else
    perform private.cancel_order_line(v_booking.order_item_id,
      now() <= v_booking.starts_at - make_interval(hours => v_booking.refund_until_hours));
  end if;
  return v_booking;
end
$$;

