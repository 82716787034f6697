-- One definition each of two tests the invoice functions share: "an invoice not yet credited in
-- full" (private.invoice_open) and "an invoice's lines name their order line"
-- (private.lines_name_items). The functions that wrote them out are replaced whole, unchanged
-- otherwise.

-- private.invoice_open(invoice): the invoice is not yet credited in full (no credit note for all
-- that was left of it; a credit note for one cancelled line leaves it open).
create function private.invoice_open(p_invoice_id uuid) returns boolean
language sql stable set search_path = ''
as $$
  select not exists (select 1 from public.invoices c where c.credits_invoice_id = p_invoice_id and c.credits_item_id is null)
$$;
revoke execute on function private.invoice_open(uuid) from public, anon, authenticated;

-- private.lines_name_items(snapshot): every line of an invoice's snapshot names its order line
-- (itemId); invoices issued before lines did are credited by amount instead.
create function private.lines_name_items(p_snapshot jsonb) returns boolean
language sql immutable set search_path = ''
as $$
  select not exists (select 1 from jsonb_array_elements(p_snapshot -> 'lines') l where not l ? 'itemId')
$$;
revoke execute on function private.lines_name_items(jsonb) from public, anon, authenticated;

create or replace function private.issue_credit_note(p_invoice_id uuid, p_item_id uuid default null) returns uuid
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
  if private.lines_name_items(v_invoice.snapshot) then
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
         and private.invoice_open(i.id)) then
    perform private.issue_invoice(new.id, case when new.deposit is null then 'full' else 'deposit' end);
  elsif new.status = 'cancelled' then
    v_refundable := new.deposit is null or private.deposit_refundable(new.id);
    for v_open in
      select i.id from public.invoices i
      where i.order_id = new.id and i.kind = 'invoice'
        and private.invoice_open(i.id)
        and (v_refundable or i.snapshot ->> 'part' is distinct from 'deposit')
      order by i.serial
    loop
      perform private.issue_credit_note(v_open);
    end loop;
  end if;
  return null;
end
$$;

create or replace function private.cancel_order_line(p_item_id uuid, p_refundable boolean) returns void
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
      and private.invoice_open(i.id)
      and (not private.lines_name_items(i.snapshot)
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
