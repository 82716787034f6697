-- Products, variants and stock (issue 37, ARCHITECTURE §20; docs/architecture.md#products-variants-and-stock).
--
-- * product_options: up to three options per product with ordered choices; product_variants:
--   the combinations sold, each with its own SKU, price (null: the product's), availability,
--   counted stock (null: not counted), low-stock mark and picture. Everyone reads; admins write,
--   options only through save_product_options().
-- * Every existing product becomes one variant (no options), and every cart line points at it:
--   prices, carts and every spec flow stay as they were. A new product gets its variant from the
--   products_first_variant trigger.
-- * cart_items.variant_id (not null, checked against product_id by a composite key); a cart holds
--   one line per variant (the unique key moves from the product to the variant).
-- * add_variant_to_cart(variant); add_to_cart(product) adds a one-variant product's variant and
--   refuses a product with options ('variant_required').
-- * order_items keep the variant: variant_id, option_values and sku as at purchase, the line's
--   name with its choices ("Golf shirt — L / Navy"), and the counted units taken (stock_taken).
-- * place_order takes counted stock by a conditional update in its own transaction (never below
--   zero; 'not_enough_stock' names the line and what is left), and orders_stock_on_status gives
--   it back when the order is cancelled (and takes it again if it is reopened).
--
-- Supersedes public.add_to_cart(uuid) of 20261101000000_core_schema.sql, the cart_items insert
-- policy, and private.place_order_for(...) of 20261204000000_account_recovery.sql's era.

-- public.product_options ----------------------------------------------------------------------
-- Up to three options per product (Size, Colour; Flavour), each with its ordered choices. A
-- product without options has none, and exactly one variant (below). Written only through
-- save_product_variants(), which keeps the variants' option values in step with these rows.
create table public.product_options (
  product_id uuid not null references public.products (id) on delete cascade,
  position smallint not null check (position between 1 and 3),
  name text not null check (char_length(name) between 1 and 40 and name = btrim(name)),
  choices text[] not null check (
    cardinality(choices) between 1 and 30
    and array_position(choices, null) is null
    and array_ndims(choices) = 1),
  primary key (product_id, position)
);

alter table public.product_options enable row level security;
create policy "product_options: read all" on public.product_options
  for select to anon, authenticated using (true);
create policy "product_options: admin insert" on public.product_options
  for insert to authenticated with check ((select public.is_admin()));
create policy "product_options: admin delete" on public.product_options
  for delete to authenticated using ((select public.is_admin()));

revoke all on public.product_options from anon, authenticated;
grant select on public.product_options to anon, authenticated;
grant insert, delete on public.product_options to authenticated;
grant all on public.product_options to service_role;

create trigger product_options_catalogue_changes
  after insert or update or delete or truncate on public.product_options
  for each statement execute function public.notify_catalogue_change();

-- public.product_variants ---------------------------------------------------------------------
-- What a cart line, an order line and stock refer to (docs/architecture.md#products-variants-and-stock).
-- option_values holds one choice per option, in the options' order ('{}' for a product without
-- options). price null: the product's price; stock null: not counted. A product gets its first
-- variant when it is made (products_first_variant below).
-- Triggers (they fire in name order within each timing):
--   product_variants_catalogue_changes: after insert or delete or truncate or update of what the shop shows but stock, per statement -> public.notify_catalogue_change()
--   product_variants_stock_shown: after update of stock, per row, when what the shop shows of it changes -> public.notify_catalogue_change()
create table public.product_variants (
  id uuid primary key default gen_random_uuid(),
  product_id uuid not null references public.products (id) on delete cascade,
  option_values text[] not null default '{}' check (
    cardinality(option_values) <= 3 and array_position(option_values, null) is null),
  sku text check (char_length(sku) between 1 and 64 and sku = btrim(sku)),
  price numeric(12, 2) check (price > 0),
  available boolean not null default true,
  stock integer check (stock between 0 and 1000000),
  -- At or below this many in stock, admins are told (once per crossing).
  low_stock_at integer check (low_stock_at between 0 and 1000000),
  image_path text check (char_length(image_path) <= 500),
  position integer not null default 0,
  created_at timestamptz not null default now(),
  unique (product_id, option_values),
  -- Cart lines name the variant with its product (one product per line, checked by the key).
  unique (id, product_id)
);

create index product_variants_product_idx on public.product_variants (product_id, position);
create unique index product_variants_sku_key on public.product_variants (lower(sku)) where sku is not null;

alter table public.product_variants enable row level security;
create policy "product_variants: read all" on public.product_variants
  for select to anon, authenticated using (true);
create policy "product_variants: admin insert" on public.product_variants
  for insert to authenticated with check ((select public.is_admin()));
create policy "product_variants: admin update" on public.product_variants
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "product_variants: admin delete" on public.product_variants
  for delete to authenticated using ((select public.is_admin()));

revoke all on public.product_variants from anon, authenticated;
grant select on public.product_variants to anon, authenticated;
grant insert, delete on public.product_variants to authenticated;
grant update (option_values, sku, price, available, stock, low_stock_at, image_path, position) on public.product_variants to authenticated;
grant all on public.product_variants to service_role;

create trigger product_variants_catalogue_changes
  after insert or delete or truncate
     or update of product_id, option_values, sku, price, available, low_stock_at, image_path, position
  on public.product_variants
  for each statement execute function public.notify_catalogue_change();

-- A sale of one of a hundred changes nothing a shopper sees ("In stock"); the shop's pages are
-- dropped only when the count shown changes: "Only N left" (STOCK_FEW_LEFT, src/lib/constants.ts)
-- or "Sold out", or counting is switched on or off.
create trigger product_variants_stock_shown
  after update of stock on public.product_variants
  for each row when (
    old.stock is distinct from new.stock
    and (old.stock is null or new.stock is null or least(old.stock, new.stock) <= 5))
  execute function public.notify_catalogue_change();

-- A line's name as the shop shows and keeps it: the product's name, and the variant's choices
-- after a dash ("Golf shirt — L / Navy"); a product without options is its name alone.
create function public.variant_line_name(p_name text, p_option_values text[]) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select p_name || coalesce(' — ' || nullif(array_to_string(p_option_values, ' / '), ''), '')
$$;
revoke execute on function public.variant_line_name(text, text[]) from public;
grant execute on function public.variant_line_name(text, text[]) to anon, authenticated, service_role;

-- A new product is sold as one variant until the owner gives it options.
create function public.product_first_variant() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  insert into public.product_variants (product_id) values (new.id);
  return null;
end
$$;
revoke execute on function public.product_first_variant() from public, anon, authenticated;
grant execute on function public.product_first_variant() to service_role;
create trigger products_first_variant
  after insert on public.products
  for each row execute function public.product_first_variant();

insert into public.product_variants (product_id, created_at)
select p.id, p.created_at from public.products p
where not exists (select 1 from public.product_variants v where v.product_id = p.id);

-- save_product_options(product, options): sets a product's options (a JSON array of at most three
-- {"name": text, "choices": [text, ...]}, in order; [] for none) and makes its variants the
-- combinations of their choices: a variant whose choices are still offered keeps its id, price,
-- SKU, stock and picture; a new combination starts at the product's price, available, not
-- counted; a combination no longer offered is removed (cart lines with it go; order lines keep
-- their copy). Admins only (RLS decides, as for any catalogue write). Returns the variant count.
create function public.save_product_options(p_product_id uuid, p_options jsonb) returns integer
language plpgsql security invoker set search_path = ''
as $$
declare
  v_count integer;
  v_option jsonb;
  v_position smallint := 0;
  v_names text[] := '{}';
  v_wanted jsonb;
begin
  if not (select public.is_admin()) then
    raise exception 'admins_only' using errcode = '42501';
  end if;
  if jsonb_typeof(p_options) is distinct from 'array' or jsonb_array_length(p_options) > 3 then
    raise exception 'options_invalid';
  end if;
  -- The product's row is locked so that two saves of one product run one after the other.
  perform 1 from public.products where id = p_product_id for update;
  if not found then
    raise exception 'product_not_found';
  end if;

  delete from public.product_options where product_id = p_product_id;
  for v_option in select value from jsonb_array_elements(p_options) loop
    v_position := v_position + 1;
    if jsonb_typeof(v_option -> 'choices') is distinct from 'array'
       or lower(btrim(v_option ->> 'name')) = any (v_names)
       or exists (select 1 from jsonb_array_elements(v_option -> 'choices') c
                  where jsonb_typeof(c.value) <> 'string' or char_length(btrim(c.value #>> '{}')) not between 1 and 40)
       or (select count(*) <> count(distinct lower(btrim(c))) from jsonb_array_elements_text(v_option -> 'choices') c) then
      raise exception 'options_invalid';
    end if;
    v_names := v_names || lower(btrim(v_option ->> 'name'));
    insert into public.product_options (product_id, position, name, choices)
    values (p_product_id, v_position, btrim(v_option ->> 'name'),
            array(select btrim(c.value) from jsonb_array_elements_text(v_option -> 'choices') with ordinality c(value, n) order by c.n));
  end loop;

  -- Every combination, in the options' order (the first option varies slowest).
  with recursive combos(option_values, depth, sort) as (
    select '{}'::text[], 0, '{}'::integer[]
    union all
    select c.option_values || ch.value, c.depth + 1, c.sort || ch.n::integer
    from combos c
    join public.product_options o on o.product_id = p_product_id and o.position = c.depth + 1
    cross join lateral unnest(o.choices) with ordinality as ch(value, n)
  )
  select coalesce(jsonb_agg(jsonb_build_object('values', to_jsonb(c.option_values), 'position', c.position)), '[]'), count(*)
  into v_wanted, v_count
  from (select option_values, row_number() over (order by sort) as position from combos where depth = v_position) c;
  if v_count > 100 then
    raise exception 'too_many_variants';
  end if;

  with wanted as (
    select array(select jsonb_array_elements_text(e -> 'values')) as option_values, (e ->> 'position')::integer as position
    from jsonb_array_elements(v_wanted) e
  ),
  gone as (
    delete from public.product_variants v
    where v.product_id = p_product_id and not exists (select 1 from wanted w where w.option_values = v.option_values)
  ),
  moved as (
    update public.product_variants v set position = w.position
    from wanted w
    where v.product_id = p_product_id and v.option_values = w.option_values and v.position <> w.position
  )
  insert into public.product_variants (product_id, option_values, position)
  select p_product_id, w.option_values, w.position from wanted w
  where not exists (
    select 1 from public.product_variants v where v.product_id = p_product_id and v.option_values = w.option_values);
  return v_count;
end
$$;
revoke execute on function public.save_product_options(uuid, jsonb) from public, anon;
grant execute on function public.save_product_options(uuid, jsonb) to authenticated, service_role;

alter table public.cart_items add column variant_id uuid;
update public.cart_items c set variant_id = v.id from public.product_variants v where v.product_id = c.product_id;
alter table public.cart_items alter column variant_id set not null;
alter table public.cart_items drop constraint cart_items_user_id_product_id_key;
alter table public.cart_items
  add constraint cart_items_variant_fkey foreign key (variant_id, product_id)
    references public.product_variants (id, product_id) on delete cascade,
  add constraint cart_items_user_variant_key unique (user_id, variant_id);
create index cart_items_variant_idx on public.cart_items (variant_id);

drop policy "cart_items: insert own, available products" on public.cart_items;
create policy "cart_items: insert own, available products" on public.cart_items
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (
      select 1 from public.products p join public.product_variants v on v.product_id = p.id
      where p.id = product_id and v.id = variant_id and p.available and v.available)
  );

-- add_variant_to_cart: +1 on an existing line of the variant, a new line at 1; only available
-- variants of available products, and no more than a counted variant has in stock (place_order
-- takes the stock; this only keeps a cart from asking for what is not there).
-- Security invoker: the caller's own RLS policies decide, as for any direct write.
create function public.add_variant_to_cart(p_variant_id uuid) returns public.cart_items
language plpgsql security invoker set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_variant public.product_variants;
  v_item public.cart_items;
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
  insert into public.cart_items as c (user_id, product_id, variant_id, quantity)
  values (v_uid, v_variant.product_id, v_variant.id, 1)
  on conflict (user_id, variant_id) do update set quantity = c.quantity + 1
  returning * into v_item;
  if v_variant.stock is not null and v_item.quantity > v_variant.stock then
    raise exception 'not_enough_stock';
  end if;
  return v_item;
end
$$;
revoke execute on function public.add_variant_to_cart(uuid) from public, anon;
grant execute on function public.add_variant_to_cart(uuid) to authenticated, service_role;

-- add_to_cart: the same for a product sold as one variant (a product without options); a product
-- with options needs its variant chosen ('variant_required').
create or replace function public.add_to_cart(p_product_id uuid) returns public.cart_items
language plpgsql security invoker set search_path = ''
as $$
declare
  v_variants uuid[];
begin
  if not exists (select 1 from public.products where id = p_product_id and available) then
    raise exception 'product_unavailable';
  end if;
  select array_agg(v.id) into v_variants from public.product_variants v where v.product_id = p_product_id;
  if cardinality(v_variants) is distinct from 1 then
    raise exception 'variant_required';
  end if;
  return public.add_variant_to_cart(v_variants[1]);
end
$$;
revoke execute on function public.add_to_cart(uuid) from public, anon;
grant execute on function public.add_to_cart(uuid) to authenticated, service_role;

alter table public.order_items
  add column variant_id uuid references public.product_variants (id) on delete set null,
  add column option_values text[] not null default '{}',
  add column sku text,
  add column stock_taken integer not null default 0 check (stock_taken >= 0);
create index order_items_variant_idx on public.order_items (variant_id) where variant_id is not null;
update public.order_items i set variant_id = v.id
from public.product_variants v where v.product_id = i.product_id and not i.is_delivery_fee;

-- Counted stock follows the order's status as delivery capacity does (090_fulfilment.sql): a
-- cancelled order gives back what place_order took; an order taken out of cancelled takes it
-- again, and is refused ('not_enough_stock') if it is no longer there, so stock never goes below
-- zero. Variants no longer counted are left alone. In variant order, as place_order takes them.
create function public.order_stock_on_status() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_line record;
begin
  if new.status = 'cancelled' and old.status <> 'cancelled' then
    update public.product_variants v
    set stock = v.stock + t.quantity
    from (select i.variant_id, sum(i.stock_taken)::integer as quantity
          from public.order_items i where i.order_id = new.id and i.stock_taken > 0
          group by i.variant_id) t
    where v.id = t.variant_id and v.stock is not null;
  elsif old.status = 'cancelled' and new.status <> 'cancelled' then
    for v_line in
      select i.variant_id, sum(i.stock_taken)::integer as quantity
      from public.order_items i where i.order_id = new.id and i.stock_taken > 0
      group by i.variant_id order by i.variant_id
    loop
      update public.product_variants v set stock = v.stock - v_line.quantity
      where v.id = v_line.variant_id and v.stock >= v_line.quantity;
      if not found and exists (
        select 1 from public.product_variants v where v.id = v_line.variant_id and v.stock is not null
      ) then
        raise exception 'not_enough_stock';
      end if;
    end loop;
  end if;
  return null;
end
$$;
revoke execute on function public.order_stock_on_status() from public, anon, authenticated;
grant execute on function public.order_stock_on_status() to service_role;
create trigger orders_stock_on_status
  after update of status on public.orders
  for each row when (old.status is distinct from new.status)
  execute function public.order_stock_on_status();

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

  -- The reference paid with must be the one this customer holds reserved; deleting it checks and
  -- closes it at once (rolled back with everything else if anything below fails).
  delete from public.checkout_references r where r.user_id = p_uid and r.reference = p_reference;
  if not found then
    raise exception 'reference_stale';
  end if;

  select sum(coalesce(v.price, p.price) * c.quantity) into v_total
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
                                  variant_id, option_values, sku, stock_taken)
  select v_order.id, p.id,
         public.variant_line_name(p.name, v.option_values),
         coalesce(v.price, p.price), c.quantity, coalesce(v.image_path, p.image_path),
         v.id, v.option_values, v.sku, case when v.stock is not null then c.quantity else 0 end
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
