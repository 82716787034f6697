-- increase_cart_line() checks in the order the API tells them: unavailable, a booked time, the
-- line's limit, stock. Availability and the booked time were checked in TypeScript before.
create or replace function public.increase_cart_line(p_line_id uuid) returns public.cart_items
language plpgsql security invoker set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_item public.cart_items;
  v_stock integer;
  v_available boolean;
  v_booking boolean;
begin
  select v.stock, v.available and p.available, c.slot_starts_at is not null into v_stock, v_available, v_booking
  from public.cart_items c
  join public.product_variants v on v.id = c.variant_id
  join public.products p on p.id = v.product_id
  where c.id = p_line_id and c.user_id = v_uid;
  if not found then
    return null;
  end if;
  if not v_available then
    raise exception 'product_unavailable';
  end if;
  if v_booking then
    raise exception 'one_booking_per_line';
  end if;
  update public.cart_items c set quantity = c.quantity + 1
  where c.id = p_line_id and c.user_id = v_uid
  returning * into v_item;
  if not found then
    return null;
  end if;
  if v_stock is not null and (select sum(c.quantity) from public.cart_items c where c.user_id = v_uid and c.variant_id = v_item.variant_id) > v_stock then
    raise exception 'not_enough_stock';
  end if;
  return v_item;
end
$$;
