-- The catalogue (src/server/catalogue/, src/server/products/): categories and products. Everyone
-- reads; admins write. Every change is announced so each server process drops its caches.

-- Every change to the catalogue (and to what the storefront publishes: shop settings, payment
-- settings, opening hours) is announced on channel 'catalogue_changes', which every server
-- process LISTENs to: each drops its catalogue cache and its kept pages, whichever process (or
-- SQL session) made the change.
create function public.notify_catalogue_change() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  perform pg_notify('catalogue_changes', tg_table_name);
  return null;
end
$$;
revoke execute on function public.notify_catalogue_change() from public, anon, authenticated;
grant execute on function public.notify_catalogue_change() to service_role;

-- public.categories ---------------------------------------------------------------------------
-- The business lines: everyone reads the catalogue, admins write it.
-- Triggers (they fire in name order within each timing):
--   categories_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change()
create table public.categories (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(btrim(name)) between 1 and 60 and name = btrim(name)),
  created_at timestamptz not null default now(),
  -- Units of this category the shop can fulfil per day; null: no limit (090_fulfilment.sql).
  daily_limit integer check (daily_limit between 1 and 100000)
);

-- Names differing only in case are the same category to a shopper.
create unique index categories_name_ci_key on public.categories (lower(name));

alter table public.categories enable row level security;
-- categories and products: everyone reads; admins write.
create policy "categories: read all" on public.categories
  for select to anon, authenticated using (true);
create policy "categories: admin insert" on public.categories
  for insert to authenticated with check ((select public.is_admin()));
create policy "categories: admin update" on public.categories
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "categories: admin delete" on public.categories
  for delete to authenticated using ((select public.is_admin()));

grant all on public.categories to anon, authenticated, service_role;

create trigger categories_catalogue_changes
  after insert or update or delete or truncate on public.categories
  for each statement execute function public.notify_catalogue_change();

-- public.products -----------------------------------------------------------------------------
-- Triggers (they fire in name order within each timing):
--   products_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change()
--   products_first_variant: after insert, per row -> public.product_first_variant()
create table public.products (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 120),
  description text not null default '' check (char_length(description) <= 2000),
  price numeric(12, 2) not null check (price > 0),
  image_path text check (char_length(image_path) <= 500),
  category_id uuid not null references public.categories (id) on delete restrict,
  available boolean not null default true,
  created_at timestamptz not null default now(),
  -- Days before the product can be delivered or collected (090_fulfilment.sql's day offer).
  lead_time_days integer not null default 0 check (lead_time_days between 0 and 60),
  -- "Request a quote" on its page (105_quotes.sql, docs/quotes.md): not offered ('off'), beside
  -- Add to Cart ('beside'), or instead of it ('instead': add_variant_to_cart() refuses it).
  quote_mode text not null default 'off' check (quote_mode in ('off', 'beside', 'instead'))
);

-- The shop lists available products newest first, optionally per category.
create index products_available_created_idx on public.products (created_at desc) where available;
create index products_category_created_idx on public.products (category_id, created_at desc);

alter table public.products enable row level security;
create policy "products: read all" on public.products
  for select to anon, authenticated using (true);
create policy "products: admin insert" on public.products
  for insert to authenticated with check ((select public.is_admin()));
create policy "products: admin update" on public.products
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "products: admin delete" on public.products
  for delete to authenticated using ((select public.is_admin()));

grant all on public.products to anon, authenticated, service_role;

create trigger products_catalogue_changes
  after insert or update or delete or truncate on public.products
  for each statement execute function public.notify_catalogue_change();

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
--   product_variants_low_stock_mark: before update of stock or low_stock_at, per row -> public.variant_low_stock_mark()
--   product_variants_picture_check: before insert or update of image_path, per row, when it is set -> public.variant_picture_check() (with the pictures below)
--   product_variants_back_in_stock: after update of stock, per row, when it goes from 0 to more -> public.mail_back_in_stock() (070_mail.sql)
--   product_variants_catalogue_changes: after insert or delete or truncate or update of what the shop shows but stock, per statement -> public.notify_catalogue_change()
--   product_variants_low_stock_notice: after update of stock or low_stock_at, per row, when a crossing is marked -> public.notice_low_stock() (070_mail.sql)
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
  -- When admins were told it came to its low-stock mark; null while above it (or not counted),
  -- so the next crossing tells them again (variant_low_stock_mark() below).
  low_stock_notified_at timestamptz,
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

-- Keeps low_stock_notified_at: set when a counted variant is at or below its mark, cleared when
-- it is above it (or either is not set), so each crossing is marked once.
create function public.variant_low_stock_mark() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if new.stock is null or new.low_stock_at is null or new.stock > new.low_stock_at then
    new.low_stock_notified_at := null;
  elsif new.low_stock_notified_at is null then
    new.low_stock_notified_at := now();
  end if;
  return new;
end
$$;
revoke execute on function public.variant_low_stock_mark() from public, anon, authenticated;
grant execute on function public.variant_low_stock_mark() to service_role;
create trigger product_variants_low_stock_mark
  before update of stock, low_stock_at on public.product_variants
  for each row execute function public.variant_low_stock_mark();

-- public.low_stock_notices ----------------------------------------------------------------------
-- One row per low-stock crossing (written by notice_low_stock(), 070_mail.sql): what the admins'
-- live notice reads. Admins read; nobody writes through the API.
create table public.low_stock_notices (
  id uuid primary key default gen_random_uuid(),
  variant_id uuid not null references public.product_variants (id) on delete cascade,
  stock integer not null,
  low_stock_at integer not null,
  created_at timestamptz not null default now()
);

create index low_stock_notices_variant_idx on public.low_stock_notices (variant_id);
create index low_stock_notices_created_idx on public.low_stock_notices (created_at desc);

alter table public.low_stock_notices enable row level security;
create policy "low_stock_notices: admins read" on public.low_stock_notices
  for select to authenticated using ((select public.is_admin()));

revoke all on public.low_stock_notices from anon, authenticated;
grant select on public.low_stock_notices to authenticated;
grant all on public.low_stock_notices to service_role;

-- Supabase mode: Realtime sends each insert to admins alone (RLS).
alter publication supabase_realtime add table public.low_stock_notices;

-- public.back_in_stock_requests -----------------------------------------------------------------
-- A signed-in customer's explicit request to be mailed once when a sold-out variant is back,
-- with its time. mail_back_in_stock() (070_mail.sql) mails each and deletes it (POPIA: one mail,
-- then forgotten); deleting the account deletes them. A customer reads, makes and deletes only
-- their own, and only for a variant sold out now; admins read all.
create table public.back_in_stock_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  variant_id uuid not null references public.product_variants (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (user_id, variant_id)
);

create index back_in_stock_requests_variant_idx on public.back_in_stock_requests (variant_id);

alter table public.back_in_stock_requests enable row level security;
create policy "back_in_stock_requests: read own, admins all" on public.back_in_stock_requests
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "back_in_stock_requests: insert own, sold out" on public.back_in_stock_requests
  for insert to authenticated
  with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.product_variants v where v.id = variant_id and v.stock = 0)
  );
create policy "back_in_stock_requests: delete own" on public.back_in_stock_requests
  for delete to authenticated using (user_id = (select auth.uid()));

revoke all on public.back_in_stock_requests from anon, authenticated;
grant select, delete on public.back_in_stock_requests to authenticated;
grant insert (variant_id) on public.back_in_stock_requests to authenticated;
grant all on public.back_in_stock_requests to service_role;

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

-- public.product_images -----------------------------------------------------------------------
-- A product's pictures (issue 37, item 4): in the owner's order, each with its alt text, at most
-- 12 (MAX_PRODUCT_PICTURES, src/lib/constants.ts), files in the public products-services bucket
-- like any product image. One is the card's picture, and products.image_path always holds its
-- path (product_images_card_path), so every reader of image_path (cards, cart, order lines, Product
-- Management) shows it as before. Admins write them through the functions below and update alt
-- text directly; everyone reads (RLS).
-- Triggers (they fire in name order within each timing):
--   product_images_card_path: after insert or delete or update of path, position, is_card, per row -> public.product_images_card_path()
--   product_images_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change()
--   product_images_variant_pictures: after delete or update of path, per row -> public.product_images_variant_pictures()
-- And one on public.products, kept here with the pictures:
--   products_card_picture: after insert or update of image_path, per row, when image_path is set -> public.product_card_picture()
create table public.product_images (
  id uuid primary key default gen_random_uuid(),
  product_id uuid not null references public.products (id) on delete cascade,
  path text not null check (char_length(path) between 1 and 500),
  alt text not null check (char_length(alt) between 1 and 200 and alt = btrim(alt)),
  position integer not null check (position >= 1),
  is_card boolean not null default false,
  created_at timestamptz not null default now(),
  -- Deferrable so that one statement can swap two pictures' places (checked at its end).
  constraint product_images_position_key unique (product_id, position) deferrable initially immediate
);

-- At most one card picture per product (the functions below keep exactly one).
create unique index product_images_card_key on public.product_images (product_id) where is_card;

alter table public.product_images enable row level security;
create policy "product_images: read all" on public.product_images
  for select to anon, authenticated using (true);
create policy "product_images: admin insert" on public.product_images
  for insert to authenticated with check ((select public.is_admin()));
create policy "product_images: admin update" on public.product_images
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "product_images: admin delete" on public.product_images
  for delete to authenticated using ((select public.is_admin()));

revoke all on public.product_images from anon, authenticated;
grant select on public.product_images to anon, authenticated;
grant insert, delete on public.product_images to authenticated;
grant update (path, alt, position, is_card) on public.product_images to authenticated;
grant all on public.product_images to service_role;

create trigger product_images_catalogue_changes
  after insert or update or delete or truncate on public.product_images
  for each statement execute function public.notify_catalogue_change();

-- products.image_path follows the card's picture (else, for a moment inside the functions below,
-- the first picture); a product whose last picture goes (only when it is deleted) keeps it.
create function public.product_images_card_path() returns trigger
language plpgsql security invoker set search_path = ''
as $$
declare
  v_product_id uuid := case when tg_op = 'DELETE' then old.product_id else new.product_id end;
begin
  update public.products p
  set image_path = c.path
  from (select i.path from public.product_images i where i.product_id = v_product_id
        order by i.is_card desc, i.position limit 1) c
  where p.id = v_product_id and p.image_path is distinct from c.path;
  return null;
end
$$;
revoke execute on function public.product_images_card_path() from public, anon, authenticated;
grant execute on function public.product_images_card_path() to service_role;
create trigger product_images_card_path
  after insert or delete or update of path, position, is_card on public.product_images
  for each row execute function public.product_images_card_path();

-- A product given an image the way products always were (made with one, or a new image on the
-- edit form, or seeded) has it as its card picture: a new product's first picture, with the
-- product's name as its alt text; an edited one's card picture gets the new file in place of the
-- old (whose file the shop then removes). A path one of its pictures already has is the
-- pictures' own write (product_images_card_path), with nothing left to do.
create function public.product_card_picture() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if exists (select 1 from public.product_images i where i.product_id = new.id and i.path = new.image_path) then
    return null;
  end if;
  update public.product_images set path = new.image_path where product_id = new.id and is_card;
  if not found then
    insert into public.product_images (product_id, path, alt, position, is_card)
    values (new.id, new.image_path, btrim(new.name),
            coalesce((select max(i.position) from public.product_images i where i.product_id = new.id), 0) + 1, true);
  end if;
  return null;
end
$$;
revoke execute on function public.product_card_picture() from public, anon, authenticated;
grant execute on function public.product_card_picture() to service_role;
create trigger products_card_picture
  after insert or update of image_path on public.products
  for each row when (new.image_path is not null)
  execute function public.product_card_picture();

-- The product of a picture, locked: one change to a product's pictures at a time (positions are
-- read, then written). Admins only, as every catalogue write ('admins_only'); an unknown picture
-- or product is 'picture_not_found' / 'product_not_found'.
-- A variant's picture (issue 37) is one of its product's pictures (or none: the product's card picture).
-- Checked on every write; when the picture's file is replaced the variant follows it, and when the
-- picture is removed the variant goes back to the product's.
create function public.variant_picture_check() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if new.image_path is not null and not exists (
    select 1 from public.product_images i where i.product_id = new.product_id and i.path = new.image_path
  ) then
    raise exception 'variant_picture_unknown' using errcode = '23514';
  end if;
  return new;
end
$$;
revoke execute on function public.variant_picture_check() from public, anon, authenticated;
grant execute on function public.variant_picture_check() to service_role;
create trigger product_variants_picture_check
  before insert or update of image_path on public.product_variants
  for each row when (new.image_path is not null)
  execute function public.variant_picture_check();

create function public.product_images_variant_pictures() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  update public.product_variants v
  set image_path = case when tg_op = 'DELETE' then null else new.path end
  where v.product_id = old.product_id and v.image_path = old.path;
  return null;
end
$$;
revoke execute on function public.product_images_variant_pictures() from public, anon, authenticated;
grant execute on function public.product_images_variant_pictures() to service_role;
create trigger product_images_variant_pictures
  after delete or update of path on public.product_images
  for each row execute function public.product_images_variant_pictures();

create function private.lock_product_pictures(p_product_id uuid) returns void
language plpgsql security invoker set search_path = ''
as $$
begin
  if not (select public.is_admin()) then
    raise exception 'admins_only' using errcode = '42501';
  end if;
  perform 1 from public.products where id = p_product_id for no key update;
  if not found then
    raise exception 'product_not_found';
  end if;
end
$$;
revoke execute on function private.lock_product_pictures(uuid) from public, anon;
grant execute on function private.lock_product_pictures(uuid) to authenticated, service_role;

-- add_product_image(product, path, alt): a new last picture (the card's when it is the first);
-- 'too_many_pictures' past 12.
create function public.add_product_image(p_product_id uuid, p_path text, p_alt text) returns uuid
language plpgsql security invoker set search_path = ''
as $$
declare
  v_id uuid;
begin
  perform private.lock_product_pictures(p_product_id);
  if (select count(*) from public.product_images i where i.product_id = p_product_id) >= 12 then
    raise exception 'too_many_pictures';
  end if;
  insert into public.product_images (product_id, path, alt, position, is_card)
  values (p_product_id, p_path, btrim(p_alt),
          coalesce((select max(i.position) from public.product_images i where i.product_id = p_product_id), 0) + 1,
          not exists (select 1 from public.product_images i where i.product_id = p_product_id))
  returning id into v_id;
  return v_id;
end
$$;
revoke execute on function public.add_product_image(uuid, text, text) from public, anon;
grant execute on function public.add_product_image(uuid, text, text) to authenticated, service_role;

-- move_product_image(picture, up): swaps it with the picture before (up) or after it; false when
-- it is already first (last).
create function public.move_product_image(p_image_id uuid, p_up boolean) returns boolean
language plpgsql security invoker set search_path = ''
as $$
declare
  v_image public.product_images;
  v_other public.product_images;
begin
  select * into v_image from public.product_images where id = p_image_id;
  if not found then
    raise exception 'picture_not_found';
  end if;
  perform private.lock_product_pictures(v_image.product_id);
  select * into v_image from public.product_images where id = p_image_id;
  if not found then
    raise exception 'picture_not_found';
  end if;
  select * into v_other from public.product_images i
  where i.product_id = v_image.product_id
    and case when p_up then i.position < v_image.position else i.position > v_image.position end
  order by case when p_up then -i.position else i.position end
  limit 1;
  if not found then
    return false;
  end if;
  update public.product_images
  set position = case when id = v_image.id then v_other.position else v_image.position end
  where id in (v_image.id, v_other.id);
  return true;
end
$$;
revoke execute on function public.move_product_image(uuid, boolean) from public, anon;
grant execute on function public.move_product_image(uuid, boolean) to authenticated, service_role;

-- set_product_card_image(picture): makes it its product's card picture (products.image_path).
create function public.set_product_card_image(p_image_id uuid) returns void
language plpgsql security invoker set search_path = ''
as $$
declare
  v_product_id uuid;
begin
  select product_id into v_product_id from public.product_images where id = p_image_id;
  if not found then
    raise exception 'picture_not_found';
  end if;
  perform private.lock_product_pictures(v_product_id);
  if not exists (select 1 from public.product_images where id = p_image_id) then
    raise exception 'picture_not_found';
  end if;
  -- Two statements: the card index is checked row by row.
  update public.product_images set is_card = false where product_id = v_product_id and is_card and id <> p_image_id;
  update public.product_images set is_card = true where id = p_image_id and not is_card;
end
$$;
revoke execute on function public.set_product_card_image(uuid) from public, anon;
grant execute on function public.set_product_card_image(uuid) to authenticated, service_role;

-- remove_product_image(picture): removes it and returns its path (the shop removes the file
-- after the commit); the first picture left becomes the card's if it was. A product keeps at
-- least one picture ('last_picture'): products are made with one.
create function public.remove_product_image(p_image_id uuid) returns text
language plpgsql security invoker set search_path = ''
as $$
declare
  v_image public.product_images;
begin
  select * into v_image from public.product_images where id = p_image_id;
  if not found then
    raise exception 'picture_not_found';
  end if;
  perform private.lock_product_pictures(v_image.product_id);
  select * into v_image from public.product_images where id = p_image_id;
  if not found then
    raise exception 'picture_not_found';
  end if;
  if (select count(*) from public.product_images i where i.product_id = v_image.product_id) = 1 then
    raise exception 'last_picture';
  end if;
  delete from public.product_images where id = p_image_id;
  update public.product_images set position = position - 1
  where product_id = v_image.product_id and position > v_image.position;
  if v_image.is_card then
    update public.product_images set is_card = true
    where id = (select i.id from public.product_images i where i.product_id = v_image.product_id order by i.position limit 1);
  end if;
  return v_image.path;
end
$$;
revoke execute on function public.remove_product_image(uuid) from public, anon;
grant execute on function public.remove_product_image(uuid) to authenticated, service_role;

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

-- public.bookable_services --------------------------------------------------------------------
-- A product sold as a time slot (docs/bookings.md): all its variants share these settings and the
-- capacity. Free times: 095_bookings.sql. Everyone reads; admins write.
-- Triggers (they fire in name order within each timing):
--   bookable_services_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change()
create table public.bookable_services (
  product_id uuid primary key references public.products (id) on delete cascade,
  duration_minutes integer not null check (duration_minutes between 15 and 1440),
  buffer_minutes integer not null default 0 check (buffer_minutes between 0 and 480),
  capacity integer not null default 1 check (capacity between 1 and 100),
  notice_hours integer not null default 24 check (notice_hours between 0 and 720),
  horizon_days integer not null default 30 check (horizon_days between 1 and 365),
  location text not null default 'customer_address' check (location in ('customer_address', 'shop', 'online')),
  deposit text not null default 'none' check (deposit in ('none', 'percent', 'full')),
  deposit_percent smallint check (deposit_percent between 1 and 99),
  refund_until_hours integer not null default 48 check (refund_until_hours between 0 and 720),
  constraint bookable_services_deposit_shape check ((deposit = 'percent') = (deposit_percent is not null))
);

alter table public.bookable_services enable row level security;
create policy "bookable_services: read all" on public.bookable_services
  for select to anon, authenticated using (true);
create policy "bookable_services: admin insert" on public.bookable_services
  for insert to authenticated with check ((select public.is_admin()));
create policy "bookable_services: admin update" on public.bookable_services
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "bookable_services: admin delete" on public.bookable_services
  for delete to authenticated using ((select public.is_admin()));

revoke all on public.bookable_services from anon, authenticated;
grant select on public.bookable_services to anon, authenticated;
grant insert, update, delete on public.bookable_services to authenticated;
grant all on public.bookable_services to service_role;

create trigger bookable_services_catalogue_changes
  after insert or update or delete or truncate on public.bookable_services
  for each statement execute function public.notify_catalogue_change();

-- public.bookable_service_hours ---------------------------------------------------------------
-- A service's hours on a weekday when they differ from the shop's opening hours (030_settings.sql);
-- a weekday without a row follows the shop.
-- Triggers (they fire in name order within each timing):
--   bookable_service_hours_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change()
create table public.bookable_service_hours (
  product_id uuid not null references public.bookable_services (product_id) on delete cascade,
  weekday smallint not null check (weekday between 1 and 7),
  open boolean not null default true,
  opens time not null default '09:00',
  closes time not null default '16:00',
  primary key (product_id, weekday),
  constraint bookable_service_hours_order check (opens < closes)
);

alter table public.bookable_service_hours enable row level security;
create policy "bookable_service_hours: read all" on public.bookable_service_hours
  for select to anon, authenticated using (true);
create policy "bookable_service_hours: admin insert" on public.bookable_service_hours
  for insert to authenticated with check ((select public.is_admin()));
create policy "bookable_service_hours: admin update" on public.bookable_service_hours
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "bookable_service_hours: admin delete" on public.bookable_service_hours
  for delete to authenticated using ((select public.is_admin()));

revoke all on public.bookable_service_hours from anon, authenticated;
grant select on public.bookable_service_hours to anon, authenticated;
grant insert, update, delete on public.bookable_service_hours to authenticated;
grant all on public.bookable_service_hours to service_role;

create trigger bookable_service_hours_catalogue_changes
  after insert or update or delete or truncate on public.bookable_service_hours
  for each statement execute function public.notify_catalogue_change();
