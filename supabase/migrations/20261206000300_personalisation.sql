-- Personalisation per line (issue 37, item 2; docs/architecture.md#products-variants-and-stock).
--
-- * product_personalisation_fields: what a product asks of the customer (text with a maximum
--   length, or a file), required or optional, with a price per unit when filled in. Everyone
--   reads; admins write.
-- * cart_items.personalisation ({"<field id>": "<text or file path>"}): the same variant with
--   other personalisation is another line, so the unique key takes it in.
-- * add_variant_to_cart(variant, personalisation) checks it (private.check_personalisation: known
--   fields, lengths, the customer's own files, required ones filled in); the one-argument form
--   adds none.
-- * order_items.personalisation: the snapshot [{label, kind, value, price}]; place_order checks
--   every line again, adds the prices to the unit price and the total, and keeps the snapshot.
-- * The personalisation bucket: private, the customer's folder, admins read; PNG, JPEG, WebP or
--   PDF up to 10 MB. unused_personalisation_files() lists files no line names a week on.
--
-- * Invoices and the order mails name a line with its personalisation (order_line_label()).
--
-- Supersedes public.add_variant_to_cart(uuid) and private.place_order_for(...) of
-- 20261206000000_variants_and_stock.sql, private.issue_invoice(uuid) of
-- 20261129000100_invoices.sql and public.mail_order_placed() of 20261205000000_opening_hours.sql.

-- public.product_personalisation_fields -------------------------------------------------------
-- What a product asks the customer to add to their line (a name to embroider, a logo): text with
-- a maximum length, or a file (a private upload in the personalisation bucket, 060_storage.sql),
-- each required or optional, with an optional price per unit when filled in. The values belong
-- to the cart line and then the order line (040_cart_and_orders.sql).
-- Triggers (they fire in name order within each timing):
--   product_personalisation_fields_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change()
create table public.product_personalisation_fields (
  id uuid primary key default gen_random_uuid(),
  product_id uuid not null references public.products (id) on delete cascade,
  position smallint not null check (position between 1 and 5),
  label text not null check (char_length(label) between 1 and 60 and label = btrim(label)),
  kind text not null check (kind in ('text', 'file')),
  required boolean not null default false,
  -- Text only: the most characters the customer may type.
  max_length integer check (max_length between 1 and 500),
  -- Added to the line's unit price when the field is filled in.
  price numeric(12, 2) not null default 0 check (price >= 0),
  constraint product_personalisation_fields_shape check ((kind = 'text') = (max_length is not null)),
  unique (product_id, position) deferrable initially deferred
);

alter table public.product_personalisation_fields enable row level security;
create policy "product_personalisation_fields: read all" on public.product_personalisation_fields
  for select to anon, authenticated using (true);
create policy "product_personalisation_fields: admin insert" on public.product_personalisation_fields
  for insert to authenticated with check ((select public.is_admin()));
create policy "product_personalisation_fields: admin update" on public.product_personalisation_fields
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "product_personalisation_fields: admin delete" on public.product_personalisation_fields
  for delete to authenticated using ((select public.is_admin()));

revoke all on public.product_personalisation_fields from anon, authenticated;
grant select on public.product_personalisation_fields to anon, authenticated;
grant insert, delete on public.product_personalisation_fields to authenticated;
grant update (position, label, kind, required, max_length, price) on public.product_personalisation_fields to authenticated;
grant all on public.product_personalisation_fields to service_role;

create trigger product_personalisation_fields_catalogue_changes
  after insert or update or delete or truncate on public.product_personalisation_fields
  for each statement execute function public.notify_catalogue_change();

-- What a line's personalisation adds to its unit price: the prices of the fields it fills in.
-- p_values is the line's {"<field id>": "<text or file path>"}.
create function public.personalisation_price(p_product_id uuid, p_values jsonb) returns numeric
language sql stable security invoker set search_path = ''
as $$
  select coalesce(sum(f.price), 0)::numeric(12, 2)
  from public.product_personalisation_fields f
  where f.product_id = p_product_id and p_values ? f.id::text
$$;
revoke execute on function public.personalisation_price(uuid, jsonb) from public;
grant execute on function public.personalisation_price(uuid, jsonb) to anon, authenticated, service_role;

-- Checks a line's personalisation against the product's fields as they are now, for the customer
-- p_uid: only known fields, each a non-empty string, texts within their length, files the
-- customer's own uploads in the personalisation bucket, every required field filled in. Raises
-- 'personalisation_required' or 'personalisation_too_long' (DETAIL: {"field": label}) or
-- 'personalisation_invalid'. Security invoker: a customer's storage policies show them their
-- own files (all a line may name), and place_order runs it as its definer.
create function private.check_personalisation(p_product_id uuid, p_values jsonb, p_uid uuid) returns void
language plpgsql stable security invoker set search_path = ''
as $$
declare
  v_field public.product_personalisation_fields;
  v_value jsonb;
begin
  -- A customer checks only their own lines (the server's checkout passes its caller's id).
  if (select auth.uid()) is not null and p_uid is distinct from (select auth.uid()) then
    raise exception 'personalisation_invalid';
  end if;
  if jsonb_typeof(p_values) is distinct from 'object' or exists (
    select 1 from jsonb_object_keys(p_values) k
    where not exists (select 1 from public.product_personalisation_fields f where f.product_id = p_product_id and f.id::text = k)
  ) then
    raise exception 'personalisation_invalid';
  end if;
  for v_field in select * from public.product_personalisation_fields f where f.product_id = p_product_id order by f.position loop
    v_value := p_values -> v_field.id::text;
    if v_value is null then
      if v_field.required then
        raise exception 'personalisation_required' using detail = json_build_object('field', v_field.label)::text;
      end if;
      continue;
    end if;
    if jsonb_typeof(v_value) <> 'string' or btrim(v_value #>> '{}') = '' then
      raise exception 'personalisation_invalid';
    end if;
    if v_field.kind = 'text' and char_length(v_value #>> '{}') > v_field.max_length then
      raise exception 'personalisation_too_long' using detail = json_build_object('field', v_field.label)::text;
    end if;
    if v_field.kind = 'file' and (
      (storage.foldername(v_value #>> '{}'))[1] is distinct from p_uid::text
      or not exists (select 1 from storage.objects o where o.bucket_id = 'personalisation' and o.name = v_value #>> '{}')
    ) then
      raise exception 'personalisation_invalid';
    end if;
  end loop;
end
$$;
revoke execute on function private.check_personalisation(uuid, jsonb, uuid) from public, anon;
grant execute on function private.check_personalisation(uuid, jsonb, uuid) to authenticated, service_role;

-- personalisation: the files customers add to their lines (a logo to embroider), at
-- {uid}/{timestamp}_{filename}; private to the customer and admins; PNG, JPEG, WebP or PDF up to
-- 10 MB, checked by content (src/server/storage/read-upload.ts), never SVG.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('personalisation', 'personalisation', false, 10485760, array['image/jpeg', 'image/png', 'image/webp', 'application/pdf'])
on conflict (id) do nothing;

create policy "personalisation: insert own folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'personalisation' and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "personalisation: read own or admin" on storage.objects
  for select to authenticated
  using (
    bucket_id = 'personalisation'
    and ((storage.foldername(name))[1] = (select auth.uid()::text) or (select public.is_admin()))
  );

alter table public.cart_items add column personalisation jsonb not null default '{}' check (jsonb_typeof(personalisation) = 'object');
alter table public.cart_items drop constraint cart_items_user_variant_key;
alter table public.cart_items add constraint cart_items_user_variant_key unique (user_id, variant_id, personalisation);

alter table public.order_items add column personalisation jsonb not null default '[]' check (jsonb_typeof(personalisation) = 'array');

-- add_variant_to_cart: +1 on an existing line of the variant with the same personalisation, a
-- new line at 1; only available variants of available products, personalisation as the product
-- asks (private.check_personalisation), and no more than a counted variant has in stock
-- (place_order takes the stock; this only keeps a cart from asking for what is not there).
-- Security invoker: the caller's own RLS policies decide, as for any direct write.
create function public.add_variant_to_cart(p_variant_id uuid, p_personalisation jsonb) returns public.cart_items
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
  perform private.check_personalisation(v_variant.product_id, coalesce(p_personalisation, '{}'), v_uid);
  insert into public.cart_items as c (user_id, product_id, variant_id, personalisation, quantity)
  values (v_uid, v_variant.product_id, v_variant.id, coalesce(p_personalisation, '{}'), 1)
  on conflict (user_id, variant_id, personalisation) do update set quantity = c.quantity + 1
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

-- Without personalisation.
create or replace function public.add_variant_to_cart(p_variant_id uuid) returns public.cart_items
language sql security invoker set search_path = ''
as $$
  select public.add_variant_to_cart(p_variant_id, '{}'::jsonb)
$$;
revoke execute on function public.add_variant_to_cart(uuid) from public, anon;
grant execute on function public.add_variant_to_cart(uuid) to authenticated, service_role;

-- place_order's body, shared by both ways to pay: the caller's cart becomes an order in one
-- transaction (prices read here, the total computed here, the reserved reference checked and
-- closed, counted stock and delivery capacity taken, the cart emptied; the same idempotency key answered with the
-- same order). p_fulfilment = {"method": "delivery"|"collection", "day": "YYYY-MM-DD",
-- "areaId": uuid, "address": text, "keepAddress": boolean}: required once fulfilment is set up,
-- ignored before. Private: reached through the public functions below, which pass the caller's
-- own id.
create or replace function private.place_order_for(
  p_uid uuid, p_idempotency_key uuid, p_reference text, p_proof_path text, p_payment_method text, p_fulfilment jsonb)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_order public.orders;
  v_total numeric(12, 2);
  v_name text;
  v_email text;
  v_method text;
  v_day date;
  v_area public.delivery_areas;
  v_address text;
  v_fee numeric(12, 2) := 0;
  v_need record;
  v_taken integer;
begin
  if p_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_idempotency_key is null then
    raise exception 'idempotency_key_required';
  end if;

  -- One checkout at a time per customer: a retry or a double click waits here, then finds the
  -- order the first call made.
  perform pg_advisory_xact_lock(hashtextextended('place_order:' || p_uid::text, 0));

  select * into v_order from public.orders
  where user_id = p_uid and idempotency_key = p_idempotency_key;
  if found then
    return v_order;
  end if;

  if p_payment_method = 'bank_transfer' then
    if p_proof_path is null or p_proof_path = '' then
      raise exception 'proof_required';
    end if;
    if (storage.foldername(p_proof_path))[1] is distinct from p_uid::text
       or not exists (
         select 1 from storage.objects o where o.bucket_id = 'payments' and o.name = p_proof_path
       )
       or exists (select 1 from public.orders o where o.proof_path = p_proof_path) then
      raise exception 'proof_invalid';
    end if;
  elsif p_payment_method = 'payfast' then
    if p_proof_path is not null then
      raise exception 'proof_invalid';
    end if;
  else
    raise exception 'payment_method_invalid';
  end if;
  if p_reference is null or p_reference !~ '^ORD-[0-9]{1,6}$' then
    raise exception 'reference_invalid';
  end if;

  -- Lock the cart lines and the products they point at, so neither changes under us.
  perform 1
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = p_uid
  for update of c for share of p;
  if not found then
    raise exception 'cart_empty';
  end if;
  -- And their variants: counted ones for the update that takes their stock below, in variant
  -- order (checkouts for the same units queue here, never crosswise); the others shared, so that
  -- checkouts of an uncounted variant run side by side while its price cannot change under them.
  perform 1 from public.product_variants v
  where v.id in (select c.variant_id from public.cart_items c where c.user_id = p_uid) and v.stock is not null
  order by v.id
  for no key update;
  perform 1 from public.product_variants v
  where v.id in (select c.variant_id from public.cart_items c where c.user_id = p_uid) and v.stock is null
  for share;

  if exists (
    select 1 from public.cart_items c
    join public.products p on p.id = c.product_id
    join public.product_variants v on v.id = c.variant_id
    where c.user_id = p_uid and not (p.available and v.available)
  ) then
    raise exception 'product_unavailable';
  end if;

  -- Personalisation, checked against the product's fields as they are now (the owner may have
  -- changed them since the line was added): a line that no longer fits is named.
  for v_need in
    select c.product_id, c.personalisation, public.variant_line_name(p.name, v.option_values) as name
    from public.cart_items c
    join public.products p on p.id = c.product_id
    join public.product_variants v on v.id = c.variant_id
    where c.user_id = p_uid
      and (c.personalisation <> '{}' or exists (select 1 from public.product_personalisation_fields f where f.product_id = c.product_id))
    order by c.added_at
  loop
    begin
      perform private.check_personalisation(v_need.product_id, v_need.personalisation, p_uid);
    exception when raise_exception then
      raise exception 'personalisation_stale' using detail = json_build_object('name', v_need.name)::text;
    end;
  end loop;

  -- The reference paid with must be the one this customer holds reserved; deleting it checks and
  -- closes it at once (rolled back with everything else if anything below fails).
  delete from public.checkout_references r where r.user_id = p_uid and r.reference = p_reference;
  if not found then
    raise exception 'reference_stale';
  end if;

  select sum((coalesce(v.price, p.price) + public.personalisation_price(c.product_id, c.personalisation)) * c.quantity) into v_total
  from public.cart_items c
  join public.products p on p.id = c.product_id
  join public.product_variants v on v.id = c.variant_id
  where c.user_id = p_uid;

  -- Fulfilment: how and when, checked against the settings and the offer at this moment.
  if private.fulfilment_configured() then
    v_method := p_fulfilment ->> 'method';
    if v_method is null or v_method not in ('delivery', 'collection') then
      raise exception 'fulfilment_required';
    end if;
    if v_method = 'collection' then
      if not coalesce((select s.collection_enabled from public.fulfilment_settings s where s.id), false) then
        raise exception 'collection_unavailable';
      end if;
    else
      if (p_fulfilment ->> 'areaId') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        -- Shared: the area cannot be changed or removed while this order is placed with it.
        select * into v_area from public.delivery_areas a
        where a.id = (p_fulfilment ->> 'areaId')::uuid and a.active
        for share;
      end if;
      if v_area.id is null then
        raise exception 'area_unknown';
      end if;
      v_address := btrim(coalesce(p_fulfilment ->> 'address', ''));
      if char_length(v_address) < 5 or char_length(v_address) > 300 then
        raise exception 'address_required';
      end if;
      if v_area.minimum_order is not null and v_total < v_area.minimum_order then
        raise exception 'below_minimum';
      end if;
      v_fee := v_area.fee;
    end if;
    begin
      v_day := (p_fulfilment ->> 'day')::date;
    exception when others then
      raise exception 'day_unavailable';
    end;
    if v_day is null or not exists (select 1 from private.fulfilment_days(p_uid, now(), false) d where d = v_day) then
      raise exception 'day_unavailable';
    end if;
  end if;

  select coalesce(nullif(btrim(pr.full_name), ''), pr.email, (select auth.email())),
         coalesce(pr.email, (select auth.email()))
  into v_name, v_email
  from public.profiles pr where pr.id = p_uid;
  if v_email is null then
    raise exception 'profile_missing';
  end if;

  insert into public.orders (reference, user_id, customer_name, customer_email, total, proof_path, idempotency_key, payment_method,
                             fulfilment_method, fulfilment_day, delivery_address, delivery_area_id, delivery_area_name, delivery_fee)
  values (p_reference, p_uid, v_name, v_email, v_total + v_fee, p_proof_path, p_idempotency_key, p_payment_method,
          v_method, v_day, v_address, v_area.id, v_area.name, v_fee)
  returning * into v_order;

  -- Counted stock, per variant in variant order (rows locked above): taken only while enough is
  -- left, so it never goes below zero; otherwise refused, naming the line and what is left.
  for v_need in
    select v.id, sum(c.quantity)::integer as quantity, v.stock,
           public.variant_line_name(p.name, v.option_values) as name
    from public.cart_items c
    join public.products p on p.id = c.product_id
    join public.product_variants v on v.id = c.variant_id
    where c.user_id = p_uid and v.stock is not null
    group by v.id, v.stock, p.name, v.option_values
    order by v.id
  loop
    update public.product_variants v set stock = v.stock - v_need.quantity
    where v.id = v_need.id and v.stock >= v_need.quantity;
    if not found then
      raise exception 'not_enough_stock'
        using detail = json_build_object('name', v_need.name, 'left', v_need.stock)::text;
    end if;
  end loop;

  insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path,
                                  variant_id, option_values, sku, stock_taken, personalisation)
  select v_order.id, p.id,
         public.variant_line_name(p.name, v.option_values),
         coalesce(v.price, p.price) + public.personalisation_price(c.product_id, c.personalisation),
         c.quantity, coalesce(v.image_path, p.image_path),
         v.id, v.option_values, v.sku, case when v.stock is not null then c.quantity else 0 end,
         (select coalesce(jsonb_agg(jsonb_build_object(
                   'label', f.label, 'kind', f.kind, 'value', c.personalisation ->> f.id::text, 'price', f.price)
                 order by f.position), '[]'::jsonb)
          from public.product_personalisation_fields f
          where f.product_id = c.product_id and c.personalisation ? f.id::text)
  from public.cart_items c
  join public.products p on p.id = c.product_id
  join public.product_variants v on v.id = c.variant_id
  where c.user_id = p_uid
  order by c.added_at;

  -- The fee is a line of its own (no product); a free area adds none (lines are priced > 0).
  if v_fee > 0 then
    insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path, is_delivery_fee)
    values (v_order.id, null, 'Delivery to ' || v_area.name, v_fee, 1, null, true);
  end if;

  -- The day's capacity, per limited category, in category order (so two carts never wait on each
  -- other's rows crosswise). The upsert adds the cart's quantity only while it fits: under a
  -- concurrent checkout it waits for the row, re-reads it and re-checks. No row back: full.
  if v_day is not null then
    for v_need in
      select p.category_id, sum(c.quantity)::integer as quantity, k.daily_limit
      from public.cart_items c
      join public.products p on p.id = c.product_id
      join public.categories k on k.id = p.category_id
      where c.user_id = p_uid and k.daily_limit is not null
      group by p.category_id, k.daily_limit
      order by p.category_id
    loop
      if v_need.quantity > v_need.daily_limit then
        raise exception 'day_full';
      end if;
      v_taken := null;
      insert into public.daily_capacity as dc (category_id, day, reserved)
      values (v_need.category_id, v_day, v_need.quantity)
      on conflict (category_id, day) do update
        set reserved = dc.reserved + excluded.reserved
        where dc.reserved + excluded.reserved <= v_need.daily_limit
      returning dc.reserved into v_taken;
      if v_taken is null then
        raise exception 'day_full';
      end if;
      insert into public.order_capacity (order_id, category_id, day, quantity)
      values (v_order.id, v_need.category_id, v_day, v_need.quantity);
    end loop;
  end if;

  if v_method = 'delivery' and (p_fulfilment ->> 'keepAddress') = 'true' then
    update public.profiles set delivery_address = v_address, delivery_area_id = v_area.id where id = p_uid;
  end if;

  delete from public.cart_items where user_id = p_uid;

  return v_order;
end
$$;
revoke execute on function private.place_order_for(uuid, uuid, text, text, text, jsonb) from public, anon, authenticated;

-- Personalisation files (060_storage.sql) no cart line and no order line names, a week after they
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
  )
  select o.name
  from storage.objects o
  where o.bucket_id = 'personalisation'
    and o.created_at < now() - interval '7 days'
    and not exists (select 1 from named n where n.path = o.name)
$$;
revoke execute on function public.unused_personalisation_files() from public, anon, authenticated;
grant execute on function public.unused_personalisation_files() to service_role;

-- An order line's name with its personalisation, for invoices and mails: "Golf shirt — L / Navy
-- (Name: Thabo; Logo: logo.png)". A file shows its name (the path's last part, without its
-- timestamp); p_personalisation is order_items.personalisation.
create function public.order_line_label(p_name text, p_personalisation jsonb) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select p_name || coalesce(' (' || (
    select string_agg(e ->> 'label' || ': ' || case when e ->> 'kind' = 'file'
             then regexp_replace(regexp_replace(e ->> 'value', '^.*/', ''), '^[0-9]+_', '')
             else e ->> 'value' end, '; ' order by n)
    from jsonb_array_elements(p_personalisation) with ordinality as x(e, n)) || ')', '')
$$;
revoke execute on function public.order_line_label(text, jsonb) from public;
grant execute on function public.order_line_label(text, jsonb) to anon, authenticated, service_role;

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

-- Order placed: to the customer (items, total, reference, how it is to be paid, and the opening
-- hours for a collection; the bank details come from the settings when the mail is rendered) and
-- to the shop. A deferred trigger, so it runs at commit, when place_order has written the order's
-- lines too.
create or replace function public.mail_order_placed() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_items jsonb;
  v_count integer;
  v_fulfilment jsonb;
begin
  select coalesce(jsonb_agg(jsonb_build_object('name', public.order_line_label(i.product_name, i.personalisation), 'quantity', i.quantity, 'unitPrice', i.unit_price) order by i.product_id is null, i.id), '[]'::jsonb),
         coalesce(sum(i.quantity) filter (where i.product_id is not null), 0)
    into v_items, v_count
    from public.order_items i where i.order_id = new.id;
  v_fulfilment := case when new.fulfilment_method is null then null else jsonb_build_object(
    'method', new.fulfilment_method, 'day', new.fulfilment_day, 'address', new.delivery_address,
    'area', new.delivery_area_name, 'fee', new.delivery_fee,
    'collectionAddress', case when new.fulfilment_method = 'collection'
      then (select nullif(s.collection_address, '') from public.fulfilment_settings s where s.id) end,
    'openingHours', case when new.fulfilment_method = 'collection' then private.opening_hours_json() end) end;
  perform private.enqueue_mail(new.customer_email, 'order_received', jsonb_strip_nulls(jsonb_build_object(
    'customerName', new.customer_name, 'reference', new.reference, 'items', v_items, 'total', new.total,
    'proofUploaded', new.proof_path is not null, 'paymentMethod', new.payment_method, 'fulfilment', v_fulfilment)));
  perform private.enqueue_mail(private.shop_notice_address(), 'new_order', jsonb_strip_nulls(jsonb_build_object(
    'customerName', new.customer_name, 'customerEmail', new.customer_email, 'reference', new.reference,
    'total', new.total, 'itemCount', greatest(v_count, 1), 'paymentMethod', new.payment_method, 'fulfilment', v_fulfilment)));
  return null;
end
$$;
