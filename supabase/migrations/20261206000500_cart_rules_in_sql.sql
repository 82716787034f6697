-- Issue 37: the cart's rules in SQL, once each (supabase/schemas/040_cart_and_orders.sql): add_to_cart takes the
-- personalisation of a product without options; increase_cart_line checks a counted variant over all the caller's lines of it.
drop function public.add_to_cart(uuid);

-- add_to_cart: the same for a product sold as one variant (a product without options, with or
-- without personalisation); a product with options needs its variant chosen ('variant_required').
create function public.add_to_cart(p_product_id uuid, p_personalisation jsonb default '{}') returns public.cart_items
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
  return public.add_variant_to_cart(v_variants[1], p_personalisation);
end
$$;
revoke execute on function public.add_to_cart(uuid, jsonb) from public, anon;
grant execute on function public.add_to_cart(uuid, jsonb) to authenticated, service_role;

-- increase_cart_line: +1 on the caller's line, while its product and variant are available and,
-- for a counted variant, while the caller's lines of it (one per personalisation) hold no more
-- than are in stock ('not_enough_stock'; place_order checks again under its lock). Null when the
-- caller has no such line. The line's limit is the table's check.
create function public.increase_cart_line(p_line_id uuid) returns public.cart_items
language plpgsql security invoker set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_item public.cart_items;
  v_stock integer;
  v_available boolean;
begin
  update public.cart_items c set quantity = c.quantity + 1
  where c.id = p_line_id and c.user_id = v_uid
  returning * into v_item;
  if not found then
    return null;
  end if;
  select v.stock, v.available and p.available into v_stock, v_available
  from public.product_variants v join public.products p on p.id = v.product_id
  where v.id = v_item.variant_id;
  if not v_available then
    raise exception 'product_unavailable';
  end if;
  if v_stock is not null and (select sum(c.quantity) from public.cart_items c where c.user_id = v_uid and c.variant_id = v_item.variant_id) > v_stock then
    raise exception 'not_enough_stock';
  end if;
  return v_item;
end
$$;
revoke execute on function public.increase_cart_line(uuid) from public, anon;
grant execute on function public.increase_cart_line(uuid) to authenticated, service_role;
