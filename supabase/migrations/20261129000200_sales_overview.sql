-- The sales overview (issue 26, /admin/overview): computed by SQL over the live orders at every
-- load, so it never lags behind an import. Days are South African days: an order placed at 23:30
-- SAST belongs to that day, whatever the server's time zone.
--
-- Paid orders are those in pending_delivery or complete (the statuses an order reaches once its
-- payment is confirmed); revenue is their totals, counted on the day they were placed.
--
-- Index plan (100,000 orders, 300,000 lines; figures in BENCHMARKS.md):
-- * orders_paid_created_idx: the paid orders of a date range, straight off a btree on created_at
--   holding only paid orders, with total and id in the index (an index-only scan once vacuumed):
--   the day series, the period totals and the top products' orders.
-- * orders_unpaid_created_idx: the money outstanding (count, value, the oldest) from the pending
--   orders alone, oldest first.
-- * order_items_order_idx (core schema): the lines of those orders, for top products and
--   categories.

create index orders_paid_created_idx on public.orders (created_at) include (total, id)
  where status in ('pending_delivery', 'complete');
create index orders_unpaid_created_idx on public.orders (created_at) include (total)
  where status = 'pending_payment';

-- The moment a South African day starts.
create function private.sast_day_start(p_day date) returns timestamptz
language sql stable set search_path = ''
as $$ select p_day::timestamp at time zone 'Africa/Johannesburg' $$;
revoke execute on function private.sast_day_start(date) from public, anon, authenticated;

-- Admins (as themselves), or the server's own connection without claims (benchmarks, scripts).
create function private.require_overview_reader() returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if (select auth.uid()) is not null or coalesce((select auth.role()), '') in ('anon', 'authenticated') then
    if not (select public.is_admin()) then
      raise exception 'admins_only' using errcode = '42501';
    end if;
  end if;
end
$$;
revoke execute on function private.require_overview_reader() from public, anon, authenticated;

-- sales_summary(now): today against yesterday and this week (from Monday) against last week
-- (Monday to Sunday): revenue and paid orders; and the money outstanding (orders still pending
-- payment: how many, their value, when the oldest was placed).
-- Security definer: one read of every order, which an admin may see anyway (checked first),
-- without row-level security's per-row checks on 100,000 orders.
create function public.sales_summary(p_now timestamptz) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_today date := (p_now at time zone 'Africa/Johannesburg')::date;
  v_week date := v_today - (extract(isodow from v_today)::integer - 1);
  v_result jsonb;
begin
  perform private.require_overview_reader();
  select jsonb_build_object(
    'today', v_today,
    'weekStart', v_week,
    'periods', jsonb_build_object(
      'today', jsonb_build_object('revenue', coalesce(sum(o.total) filter (where o.created_at >= private.sast_day_start(v_today)), 0)::text,
                                  'orders', count(*) filter (where o.created_at >= private.sast_day_start(v_today))),
      'yesterday', jsonb_build_object('revenue', coalesce(sum(o.total) filter (where o.created_at >= private.sast_day_start(v_today - 1) and o.created_at < private.sast_day_start(v_today)), 0)::text,
                                      'orders', count(*) filter (where o.created_at >= private.sast_day_start(v_today - 1) and o.created_at < private.sast_day_start(v_today))),
      'thisWeek', jsonb_build_object('revenue', coalesce(sum(o.total) filter (where o.created_at >= private.sast_day_start(v_week)), 0)::text,
                                     'orders', count(*) filter (where o.created_at >= private.sast_day_start(v_week))),
      'lastWeek', jsonb_build_object('revenue', coalesce(sum(o.total) filter (where o.created_at < private.sast_day_start(v_week)), 0)::text,
                                     'orders', count(*) filter (where o.created_at < private.sast_day_start(v_week))))
  ) into v_result
  from public.orders o
  where o.status in ('pending_delivery', 'complete')
    and o.created_at >= private.sast_day_start(least(v_week - 7, v_today - 1))
    and o.created_at < private.sast_day_start(v_today + 1);

  return v_result || (
    select jsonb_build_object('outstanding', jsonb_build_object(
      'orders', count(*), 'value', coalesce(sum(u.total), 0)::text, 'oldest', min(u.created_at)))
    from public.orders u
    where u.status = 'pending_payment'
  );
end
$$;
revoke execute on function public.sales_summary(timestamptz) from public, anon;
grant execute on function public.sales_summary(timestamptz) to authenticated, service_role;

-- sales_range(from, to): the days from `from` to `to` (inclusive, South African days): revenue
-- and paid orders per day (every day, zero where none), the range's totals, the ten products
-- that brought in most, and the revenue per business line (the product's category now; lines of
-- deleted products as "Other").
create function public.sales_range(p_from date, p_to date) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_result jsonb;
begin
  perform private.require_overview_reader();
  if p_from is null or p_to is null or p_to < p_from or p_to - p_from > 366 then
    raise exception 'invalid_range' using errcode = '22023';
  end if;
  with paid as materialized (
    select o.id, o.total, (o.created_at at time zone 'Africa/Johannesburg')::date as day
    from public.orders o
    where o.status in ('pending_delivery', 'complete')
      and o.created_at >= private.sast_day_start(p_from)
      and o.created_at < private.sast_day_start(p_to + 1)
  ),
  per_day as (
    select d.day, coalesce(sum(p.total), 0) as revenue, count(p.id) as orders
    from (select generate_series(p_from, p_to, interval '1 day')::date as day) d
    left join paid p on p.day = d.day
    group by d.day
  ),
  lines as materialized (
    select i.product_id, i.product_name, i.unit_price * i.quantity as amount, i.quantity
    from paid p join public.order_items i on i.order_id = p.id
  ),
  per_product as (
    select l.product_id, min(l.product_name) as sold_as, sum(l.amount) as revenue, sum(l.quantity) as units
    from lines l group by l.product_id
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
    'revenue', (select coalesce(sum(total), 0) from paid)::text,
    'orders', (select count(*) from paid),
    'days', (select jsonb_agg(jsonb_build_object('day', day, 'revenue', revenue::text, 'orders', orders) order by day) from per_day),
    'topProducts', coalesce((select jsonb_agg(jsonb_build_object('name', name, 'revenue', revenue::text, 'units', units) order by revenue desc, name) from top_products), '[]'::jsonb),
    'categories', coalesce((select jsonb_agg(jsonb_build_object('name', name, 'revenue', revenue::text) order by revenue desc, name nulls last) from per_category), '[]'::jsonb)
  ) into v_result;
  return v_result;
end
$$;
revoke execute on function public.sales_range(date, date) from public, anon;
grant execute on function public.sales_range(date, date) to authenticated, service_role;
