-- Quotes, continued (issue 39; docs/quotes.md): the owner's per-product "Request a quote" setting
-- (products.quote_mode, 020_catalogue.sql), the cart refusing a product sold by quote only
-- (supersedes add_variant_to_cart(uuid, jsonb) of 20261207000000_bookable_services.sql), and an
-- invoice that names the quote and the customer's purchase-order number (supersedes
-- private.issue_invoice() of 20261206000300_personalisation.sql).

alter table public.products
  add column quote_mode text not null default 'off' check (quote_mode in ('off', 'beside', 'instead'));

-- add_variant_to_cart: +1 on an existing line of the variant with the same personalisation, a
-- new line at 1; only available variants of available products, personalisation as the product
-- asks (private.check_personalisation), and no more than a counted variant has in stock
-- (place_order takes the stock; this only keeps a cart from asking for what is not there). A
-- bookable service needs its slot ('slot_required': add_booking_to_cart); a product sold by
-- quote only is asked for by quote ('quote_only').
-- Security invoker: the caller's own RLS policies decide, as for any direct write.
create or replace function public.add_variant_to_cart(p_variant_id uuid, p_personalisation jsonb) returns public.cart_items
language plpgsql security invoker set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_variant public.product_variants;
  v_item public.cart_items;
  v_in_cart integer;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select v.* into v_variant
  from public.product_variants v join public.products p on p.id = v.product_id
  where v.id = p_variant_id and v.available and p.available;
  if not found then
    raise exception 'product_unavailable';
  end if;
  if exists (select 1 from public.bookable_services b where b.product_id = v_variant.product_id) then
    raise exception 'slot_required';
  end if;
  -- Sold by quote only (docs/quotes.md): asked for through "Request a quote", never the cart.
  if exists (select 1 from public.products p where p.id = v_variant.product_id and p.quote_mode = 'instead') then
    raise exception 'quote_only';
  end if;
  perform private.check_personalisation(v_variant.product_id, coalesce(p_personalisation, '{}'), v_uid);
  insert into public.cart_items as c (user_id, product_id, variant_id, personalisation, quantity)
  values (v_uid, v_variant.product_id, v_variant.id, coalesce(p_personalisation, '{}'), 1)
  on conflict (user_id, variant_id, personalisation) where slot_starts_at is null do update set quantity = c.quantity + 1
  returning * into v_item;
  if v_variant.stock is not null then
    select sum(c.quantity) into v_in_cart from public.cart_items c where c.user_id = v_uid and c.variant_id = v_variant.id;
    if v_in_cart > v_variant.stock then
      raise exception 'not_enough_stock';
    end if;
  end if;
  return v_item;
end
$$;
revoke execute on function public.add_variant_to_cart(uuid, jsonb) from public, anon;
grant execute on function public.add_variant_to_cart(uuid, jsonb) to authenticated, service_role;

-- private.issue_invoice(order): the next invoice number and the snapshot, from the order's lines
-- as sold, the buyer's profile and the settings as they are now.
create or replace function private.issue_invoice(p_order_id uuid) returns uuid
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
begin
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

  select array_agg((i.unit_price * i.quantity)::numeric(12, 2) order by i.id),
         jsonb_agg(jsonb_build_object(
           'description', public.order_line_label(i.product_name, i.personalisation), 'quantity', i.quantity,
           'unitPrice', i.unit_price::text, 'amount', (i.unit_price * i.quantity)::numeric(12, 2)::text) order by i.id)
    into v_amounts, v_lines
    from public.order_items i where i.order_id = p_order_id;

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
  values (p_order_id, 'invoice', v_serial, v_number, v_order.total, v_vat, jsonb_build_object(
    'version', 1,
    'document', v_document,
    'full', v_settings.vat_registered and v_order.total > private.full_tax_invoice_above(),
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
    'total', v_order.total::text,
    'vat', v_vat::text,
    'exclusive', (v_order.total - v_vat)::numeric(12, 2)::text))
  returning id into v_id;
  return v_id;
end
$$;
revoke execute on function private.issue_invoice(uuid) from public, anon, authenticated;
