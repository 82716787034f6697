-- Issue 37: a variant's own picture, one of its product's pictures (supabase/schemas/020_catalogue.sql).
-- A variant's picture is one of its product's pictures (or none: the product's card picture).
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
