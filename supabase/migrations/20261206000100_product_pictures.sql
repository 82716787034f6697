-- Several pictures per product (issue 37, item 4): public.product_images, ordered, each with its
-- alt text, one of them the card's picture. products.image_path stays the card picture's path,
-- kept so by triggers in both directions, so every reader of it (cards, cart, order lines,
-- Product Management, the upload sweep) works unchanged, and every writer of it too: a product
-- made or edited with an image has that file as its card picture.
--
-- * Every product that has an image gets it as its first picture and card picture, with the
--   product's name as its alt text (below, after the table).
-- * Admins add, move, choose the card and remove through the functions below (security invoker:
--   RLS decides, as for products), and change alt text directly; everyone reads.
-- * A change drops every server's catalogue cache and kept pages (catalogue_changes).
--
-- The same objects are in supabase/schemas/020_catalogue.sql.

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

-- Each product's image, as its first picture and card picture.
insert into public.product_images (product_id, path, alt, position, is_card)
select p.id, p.image_path, btrim(p.name), 1, true
from public.products p
where p.image_path is not null;

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
