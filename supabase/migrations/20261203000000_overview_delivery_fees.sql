-- The sales overview counts delivery fees apart from goods (issue 27 item 5, ARCHITECTURE §19).
-- A delivery fee is an order line of its own (order_items.is_delivery_fee, no product): it is part
-- of the order's total, so revenue keeps it, but it is not a product nor a business line. The
-- rollup (20261202000000_sales_rollup.sql) keeps fee lines in rows of their own
-- (sales_day_products.delivery_fee), the range and the summary report them as deliveryFees, and
-- top products and business lines leave them out.

alter table public.sales_day_products add column delivery_fee boolean not null default false;
alter table public.sales_day_products drop constraint sales_day_products_key;
alter table public.sales_day_products
  add constraint sales_day_products_key unique nulls not distinct (day, product_id, product_name, delivery_fee);

-- As before, with the fee flag as part of each line's key.
create or replace function private.sales_rollup_order(p_order uuid, p_day date, p_total numeric, p_sign integer, p_day_row boolean, p_lines boolean)
returns void
language plpgsql set search_path = ''
as $$
begin
  if p_day_row then
    insert into public.sales_days as s (day, revenue, orders)
    values (p_day, p_sign * p_total, p_sign)
    on conflict (day) do update set revenue = s.revenue + excluded.revenue, orders = s.orders + excluded.orders;
  end if;
  if p_lines then
    insert into public.sales_day_products as s (day, product_id, product_name, delivery_fee, revenue, units, lines)
    select p_day, i.product_id, i.product_name, i.is_delivery_fee, p_sign * sum(i.unit_price * i.quantity), p_sign * sum(i.quantity), p_sign * count(*)
    from public.order_items i
    where i.order_id = p_order
    group by i.product_id, i.product_name, i.is_delivery_fee
    order by i.product_id, i.product_name, i.is_delivery_fee
    on conflict on constraint sales_day_products_key do update
      set revenue = s.revenue + excluded.revenue, units = s.units + excluded.units, lines = s.lines + excluded.lines;
  end if;
end
$$;
revoke execute on function private.sales_rollup_order(uuid, date, numeric, integer, boolean, boolean) from public, anon, authenticated;

create function private.sales_rollup_fee_line(p_day date, p_product uuid, p_name text, p_fee boolean, p_unit_price numeric, p_quantity integer, p_sign integer)
returns void
language sql set search_path = ''
as $$
  insert into public.sales_days as s (day) values (p_day)
  on conflict (day) do update set orders = s.orders;
  insert into public.sales_day_products as s (day, product_id, product_name, delivery_fee, revenue, units, lines)
  values (p_day, p_product, p_name, p_fee, p_sign * p_unit_price * p_quantity, p_sign * p_quantity, p_sign)
  on conflict on constraint sales_day_products_key do update
    set revenue = s.revenue + excluded.revenue, units = s.units + excluded.units, lines = s.lines + excluded.lines
$$;
revoke execute on function private.sales_rollup_fee_line(date, uuid, text, boolean, numeric, integer, integer) from public, anon, authenticated;

-- The lines' trigger as before, passing each line's fee flag.
create or replace function public.sales_rollup_order_items() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_status public.order_status;
  v_created timestamptz;
begin
  if tg_op in ('UPDATE', 'DELETE') then
    select o.status, o.created_at into v_status, v_created from public.orders o where o.id = old.order_id for share;
    if found and v_status in ('pending_delivery', 'complete') then
      perform private.sales_rollup_fee_line(private.sast_day(v_created), old.product_id, old.product_name, old.is_delivery_fee, old.unit_price, old.quantity, -1);
    end if;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    select o.status, o.created_at into v_status, v_created from public.orders o where o.id = new.order_id for share;
    if found and v_status in ('pending_delivery', 'complete') then
      perform private.sales_rollup_fee_line(private.sast_day(v_created), new.product_id, new.product_name, new.is_delivery_fee, new.unit_price, new.quantity, 1);
    end if;
  end if;
  return null;
end
$$;
drop function private.sales_rollup_line(date, uuid, text, numeric, integer, integer);

drop trigger order_items_sales_rollup_update on public.order_items;
create trigger order_items_sales_rollup_update
  after update of order_id, product_id, product_name, unit_price, quantity, is_delivery_fee on public.order_items
  for each row
  when (old.order_id is distinct from new.order_id or old.product_id is distinct from new.product_id
        or old.product_name is distinct from new.product_name or old.unit_price is distinct from new.unit_price
        or old.quantity is distinct from new.quantity or old.is_delivery_fee is distinct from new.is_delivery_fee)
  execute function public.sales_rollup_order_items();

create or replace function private.rebuild_sales_rollup() returns void
language plpgsql set search_path = ''
as $$
begin
  lock table public.orders, public.order_items in share mode;
  lock table public.sales_days, public.sales_day_products in exclusive mode;
  delete from public.sales_days;
  delete from public.sales_day_products;
  insert into public.sales_days (day, revenue, orders)
  select private.sast_day(o.created_at), sum(o.total), count(*)
  from public.orders o
  where o.status in ('pending_delivery', 'complete')
  group by 1;
  insert into public.sales_day_products (day, product_id, product_name, delivery_fee, revenue, units, lines)
  select private.sast_day(o.created_at), i.product_id, i.product_name, i.is_delivery_fee, sum(i.unit_price * i.quantity), sum(i.quantity), count(*)
  from public.orders o join public.order_items i on i.order_id = o.id
  where o.status in ('pending_delivery', 'complete')
  group by 1, 2, 3, 4;
end
$$;
revoke execute on function private.rebuild_sales_rollup() from public, anon, authenticated;
grant execute on function private.rebuild_sales_rollup() to service_role;

select private.rebuild_sales_rollup();

-- The summary as in 20261202000000, each period with its delivery fees too.
create or replace function public.sales_summary(p_now timestamptz) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_today date := (p_now at time zone 'Africa/Johannesburg')::date;
  v_week date := v_today - (extract(isodow from v_today)::integer - 1);
  v_result jsonb;
begin
  perform private.require_overview_reader();
  with fees as (
    select f.day, sum(f.revenue) as fees
    from public.sales_day_products f
    where f.delivery_fee and f.lines > 0 and f.day >= least(v_week - 7, v_today - 1) and f.day <= v_today
    group by f.day
  ),
  days as (
    select s.day, s.revenue, s.orders, coalesce(f.fees, 0) as fees
    from public.sales_days s left join fees f on f.day = s.day
    where s.orders > 0 and s.day >= least(v_week - 7, v_today - 1) and s.day <= v_today
  )
  select jsonb_build_object(
    'today', v_today,
    'weekStart', v_week,
    'periods', jsonb_build_object(
      'today', jsonb_build_object('revenue', coalesce(sum(d.revenue) filter (where d.day = v_today), 0)::text,
                                  'orders', coalesce(sum(d.orders) filter (where d.day = v_today), 0),
                                  'deliveryFees', coalesce(sum(d.fees) filter (where d.day = v_today), 0)::text),
      'yesterday', jsonb_build_object('revenue', coalesce(sum(d.revenue) filter (where d.day = v_today - 1), 0)::text,
                                      'orders', coalesce(sum(d.orders) filter (where d.day = v_today - 1), 0),
                                      'deliveryFees', coalesce(sum(d.fees) filter (where d.day = v_today - 1), 0)::text),
      'thisWeek', jsonb_build_object('revenue', coalesce(sum(d.revenue) filter (where d.day >= v_week), 0)::text,
                                     'orders', coalesce(sum(d.orders) filter (where d.day >= v_week), 0),
                                     'deliveryFees', coalesce(sum(d.fees) filter (where d.day >= v_week), 0)::text),
      'lastWeek', jsonb_build_object('revenue', coalesce(sum(d.revenue) filter (where d.day < v_week), 0)::text,
                                     'orders', coalesce(sum(d.orders) filter (where d.day < v_week), 0),
                                     'deliveryFees', coalesce(sum(d.fees) filter (where d.day < v_week), 0)::text))
  ) into v_result
  from days d;

  return v_result || (
    select jsonb_build_object('outstanding', jsonb_build_object(
      'orders', count(*), 'value', coalesce(sum(u.total), 0)::text, 'oldest', min(u.created_at)))
    from public.orders u
    where u.status = 'pending_payment'
  );
end
$$;

-- The range as in 20261202000000: products and business lines without the fee lines, and the
-- range's delivery fees beside its revenue.
create or replace function public.sales_range(p_from date, p_to date) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_result jsonb;
begin
  perform private.require_overview_reader();
  if p_from is null or p_to is null or p_to < p_from or p_to - p_from > 366 then
    raise exception 'invalid_range' using errcode = '22023';
  end if;
  with paid_days as materialized (
    select s.day, s.revenue, s.orders
    from public.sales_days s
    where s.day between p_from and p_to and s.orders > 0
  ),
  per_day as (
    select d.day, coalesce(p.revenue, 0) as revenue, coalesce(p.orders, 0) as orders
    from (select generate_series(p_from, p_to, interval '1 day')::date as day) d
    left join paid_days p on p.day = d.day
  ),
  lines as materialized (
    select r.product_id, r.product_name, r.delivery_fee, r.revenue, r.units
    from public.sales_day_products r
    where r.day between p_from and p_to and r.lines > 0
  ),
  per_product as materialized (
    select l.product_id, min(l.product_name) as sold_as, sum(l.revenue) as revenue, sum(l.units)::bigint as units
    from lines l
    where not l.delivery_fee
    group by l.product_id
  ),
  top_products as (
    select coalesce(pr.name, pp.sold_as) as name, pp.revenue, pp.units
    from per_product pp left join public.products pr on pr.id = pp.product_id
    order by pp.revenue desc, name
    limit 10
  ),
  per_category as (
    select c.name, sum(pp.revenue) as revenue
    from per_product pp
    left join public.products pr on pr.id = pp.product_id
    left join public.categories c on c.id = pr.category_id
    group by c.name
  )
  select jsonb_build_object(
    'from', p_from,
    'to', p_to,
    'revenue', (select coalesce(sum(revenue), 0) from paid_days)::text,
    'orders', (select coalesce(sum(orders), 0) from paid_days),
    'deliveryFees', (select coalesce(sum(revenue), 0) from lines where delivery_fee)::text,
    'days', (select jsonb_agg(jsonb_build_object('day', day, 'revenue', revenue::text, 'orders', orders) order by day) from per_day),
    'topProducts', coalesce((select jsonb_agg(jsonb_build_object('name', name, 'revenue', revenue::text, 'units', units) order by revenue desc, name) from top_products), '[]'::jsonb),
    'categories', coalesce((select jsonb_agg(jsonb_build_object('name', name, 'revenue', revenue::text) order by revenue desc, name nulls last) from per_category), '[]'::jsonb)
  ) into v_result;
  return v_result;
end
$$;
