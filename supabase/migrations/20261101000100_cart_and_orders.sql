-- The multi-row invariants of cart and checkout, kept in Postgres so they hold for every caller:
-- adding to a cart, placing an order atomically, recording status changes, and the change
-- notifications behind live updates.
--
-- Errors raised here carry a stable code as their message (e.g. 'cart_empty'); the server maps
-- each to the spec's message for the user.

-- add_to_cart: +1 on an existing line, a new line at 1, only for available products.
-- Security invoker: the caller's own RLS policies decide, as for any direct write.
create function public.add_to_cart(p_product_id uuid) returns public.cart_items
language plpgsql security invoker set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_item public.cart_items;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if not exists (select 1 from public.products where id = p_product_id and available) then
    raise exception 'product_unavailable';
  end if;
  insert into public.cart_items as c (user_id, product_id, quantity)
  values (v_uid, p_product_id, 1)
  on conflict (user_id, product_id) do update set quantity = c.quantity + 1
  returning * into v_item;
  return v_item;
end
$$;
revoke execute on function public.add_to_cart(uuid) from public, anon;
grant execute on function public.add_to_cart(uuid) to authenticated, service_role;

-- place_order: turns the caller's cart into an order in one transaction.
-- Security definer because customers have no direct INSERT on orders: the only way an order
-- comes to exist is this function, which computes the total itself from current prices.
create function public.place_order(p_idempotency_key uuid, p_reference text, p_proof_path text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_order public.orders;
  v_total numeric(12, 2);
  v_name text;
  v_email text;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_idempotency_key is null then
    raise exception 'idempotency_key_required';
  end if;

  -- One checkout at a time per customer: a retry or a double click waits here, then finds the
  -- order the first call made.
  perform pg_advisory_xact_lock(hashtextextended('place_order:' || v_uid::text, 0));

  select * into v_order from public.orders
  where user_id = v_uid and idempotency_key = p_idempotency_key;
  if found then
    return v_order;
  end if;

  if p_proof_path is null or p_proof_path = '' then
    raise exception 'proof_required';
  end if;
  if (storage.foldername(p_proof_path))[1] is distinct from v_uid::text
     or not exists (
       select 1 from storage.objects o where o.bucket_id = 'payments' and o.name = p_proof_path
     )
     or exists (select 1 from public.orders o where o.proof_path = p_proof_path) then
    raise exception 'proof_invalid';
  end if;
  if p_reference is null or p_reference !~ '^ORD-[0-9]{1,6}$' then
    raise exception 'reference_invalid';
  end if;
  if exists (select 1 from public.orders o where o.reference = p_reference) then
    raise exception 'reference_taken';
  end if;

  -- Lock the cart lines and the products they point at, so neither changes under us.
  perform 1
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = v_uid
  for update of c for share of p;
  if not found then
    raise exception 'cart_empty';
  end if;

  if exists (
    select 1 from public.cart_items c
    join public.products p on p.id = c.product_id
    where c.user_id = v_uid and not p.available
  ) then
    raise exception 'product_unavailable';
  end if;

  select sum(p.price * c.quantity) into v_total
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = v_uid;

  select coalesce(nullif(btrim(pr.full_name), ''), pr.email, (select auth.email())),
         coalesce(pr.email, (select auth.email()))
  into v_name, v_email
  from public.profiles pr where pr.id = v_uid;
  if v_email is null then
    raise exception 'profile_missing';
  end if;

  insert into public.orders (reference, user_id, customer_name, customer_email, total, proof_path, idempotency_key)
  values (p_reference, v_uid, v_name, v_email, v_total, p_proof_path, p_idempotency_key)
  returning * into v_order;

  insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path)
  select v_order.id, p.id, p.name, p.price, c.quantity, p.image_path
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = v_uid
  order by c.added_at;

  delete from public.cart_items where user_id = v_uid;

  return v_order;
end
$$;
revoke execute on function public.place_order(uuid, text, text) from public, anon;
grant execute on function public.place_order(uuid, text, text) to authenticated, service_role;

-- Order bookkeeping -----------------------------------------------------------------------------
create function public.touch_order() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
revoke execute on function public.touch_order() from public, anon, authenticated;

create trigger orders_touch
  before update on public.orders
  for each row execute function public.touch_order();

-- Security definer: nobody may write order_status_events directly.
create function public.record_order_status() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.order_status_events (order_id, from_status, to_status, changed_by)
    values (new.id, null, new.status, new.user_id);
  elsif new.status is distinct from old.status then
    insert into public.order_status_events (order_id, from_status, to_status, changed_by)
    values (new.id, old.status, new.status, (select auth.uid()));
  end if;
  return null;
end
$$;
revoke execute on function public.record_order_status() from public, anon, authenticated;

create trigger orders_record_status
  after insert or update of status on public.orders
  for each row execute function public.record_order_status();

-- Live updates ----------------------------------------------------------------------------------
-- Local modes forward these notifications to the subscribers allowed to see them (the owner;
-- admins for orders). The payload holds ids only, never the row.
create function public.notify_shop_change() returns trigger
language plpgsql security invoker set search_path = ''
as $$
declare
  v_row record;
begin
  if tg_op = 'DELETE' then
    v_row := old;
  else
    v_row := new;
  end if;
  perform pg_notify('shop_changes', json_build_object(
    'table', tg_table_name,
    'op', tg_op,
    'id', v_row.id,
    'user_id', v_row.user_id
  )::text);
  return null;
end
$$;
revoke execute on function public.notify_shop_change() from public, anon, authenticated;

create trigger orders_notify
  after insert or update or delete on public.orders
  for each row execute function public.notify_shop_change();
create trigger cart_items_notify
  after insert or update or delete on public.cart_items
  for each row execute function public.notify_shop_change();

-- Supabase Realtime publishes changes of these tables to subscribed browsers (RLS-filtered).
alter publication supabase_realtime add table public.orders, public.cart_items;
