-- The sales overview (src/server/overview/, docs/invoices-and-overview.md): paid orders are those
-- in pending_delivery or complete; revenue is their totals, counted on the South African day they
-- were placed. Read from a rollup kept by triggers in the same transaction as every change that
-- moves it. Delivery fees are revenue but not a product nor a business line.

-- public.sales_days ---------------------------------------------------------------------------
-- Revenue and paid orders per South African day, and per day and product (below), kept by
-- triggers in the same transaction as every change that moves them, so the overview reads live
-- figures but a range costs its days, not its order lines.
create table public.sales_days (
  day date primary key,
  revenue numeric(18, 2) not null default 0,
  orders integer not null default 0
);

alter table public.sales_days enable row level security;
create policy "sales_days: admin read" on public.sales_days
  for select to authenticated using ((select public.is_admin()));

revoke all on public.sales_days from anon, authenticated;
grant all on public.sales_days to service_role;
grant select on public.sales_days to authenticated;

-- public.sales_day_products -------------------------------------------------------------------
create table public.sales_day_products (
  day date not null,
  product_id uuid,
  product_name text not null,
  revenue numeric(18, 2) not null default 0,
  units bigint not null default 0,
  lines integer not null default 0,
  -- Delivery fees' lines have rows of their own: revenue, but not a product nor a business line.
  delivery_fee boolean not null default false,
  -- Deleted products' lines (product_id null) share one row per day and name.
  constraint sales_day_products_key unique nulls not distinct (day, product_id, product_name, delivery_fee)
);

alter table public.sales_day_products enable row level security;
create policy "sales_day_products: admin read" on public.sales_day_products
  for select to authenticated using ((select public.is_admin()));

revoke all on public.sales_day_products from anon, authenticated;
grant all on public.sales_day_products to service_role;
grant select on public.sales_day_products to authenticated;

-- The South African day of a moment.
create function private.sast_day(p_at timestamptz) returns date
language sql immutable set search_path = ''
as $$ select (p_at at time zone 'Africa/Johannesburg')::date $$;
revoke execute on function private.sast_day(timestamptz) from public, anon, authenticated;

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

-- Adds (p_sign 1) or subtracts (-1) a paid order: its day's revenue and count, and/or its lines,
-- each line keyed by its product, name and fee flag.
create function private.sales_rollup_order(p_order uuid, p_day date, p_total numeric, p_sign integer, p_day_row boolean, p_lines boolean)
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

-- One line added (1) or taken away (-1) on a day, under its fee flag. The day's row is locked
-- first (a no-op upsert), as an order's payment locks it before its lines' rows: every writer of
-- a day's rows goes through that one lock, so two transactions never take a day's product rows in
-- opposite orders.
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

-- Orders: inserted paid, status / created_at / total changed (AFTER), deleted (BEFORE).
-- Security definer: nobody else may write the rollup.
create function public.sales_rollup_orders() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_old_paid boolean := tg_op in ('UPDATE', 'DELETE') and old.status in ('pending_delivery', 'complete');
  v_new_paid boolean := tg_op in ('INSERT', 'UPDATE') and new.status in ('pending_delivery', 'complete');
  v_old_day date;
  v_new_day date;
begin
  if tg_op = 'DELETE' then
    if v_old_paid then
      perform private.sales_rollup_order(old.id, private.sast_day(old.created_at), old.total, -1, true, true);
    end if;
    return old;
  end if;
  if tg_op = 'INSERT' then
    if v_new_paid then
      perform private.sales_rollup_order(new.id, private.sast_day(new.created_at), new.total, 1, true, true);
    end if;
    return null;
  end if;
  v_old_day := private.sast_day(old.created_at);
  v_new_day := private.sast_day(new.created_at);
  if v_old_paid and v_new_paid and v_old_day = v_new_day then
    -- Still paid, same day: only a changed total moves anything.
    if new.total <> old.total then
      update public.sales_days set revenue = revenue + (new.total - old.total) where day = v_new_day;
    end if;
    return null;
  end if;
  -- Two days: the earlier day's rows first, as every writer takes them (no deadlock between two
  -- orders moved across the same two days in opposite directions).
  if v_new_paid and (not v_old_paid or v_new_day < v_old_day) then
    perform private.sales_rollup_order(new.id, v_new_day, new.total, 1, true, true);
    v_new_paid := false;
  end if;
  if v_old_paid then
    perform private.sales_rollup_order(old.id, v_old_day, old.total, -1, true, true);
  end if;
  if v_new_paid then
    perform private.sales_rollup_order(new.id, v_new_day, new.total, 1, true, true);
  end if;
  return null;
end
$$;
revoke execute on function public.sales_rollup_orders() from public, anon, authenticated;
grant execute on function public.sales_rollup_orders() to service_role;
create trigger orders_sales_rollup
  after insert or update of status, created_at, total on public.orders
  for each row execute function public.sales_rollup_orders();
create trigger orders_sales_rollup_delete
  before delete on public.orders
  for each row execute function public.sales_rollup_orders();

-- Order lines: inserted, changed or deleted while their order is paid.
create function public.sales_rollup_order_items() returns trigger
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
revoke execute on function public.sales_rollup_order_items() from public, anon, authenticated;
grant execute on function public.sales_rollup_order_items() to service_role;
create trigger order_items_sales_rollup
  after insert or delete on public.order_items
  for each row execute function public.sales_rollup_order_items();
create trigger order_items_sales_rollup_update
  after update of order_id, product_id, product_name, unit_price, quantity, is_delivery_fee on public.order_items
  for each row
  when (old.order_id is distinct from new.order_id or old.product_id is distinct from new.product_id
        or old.product_name is distinct from new.product_name or old.unit_price is distinct from new.unit_price
        or old.quantity is distinct from new.quantity or old.is_delivery_fee is distinct from new.is_delivery_fee)
  execute function public.sales_rollup_order_items();

-- The rollup recomputed from the orders, after a bulk load that ran with the triggers off
-- (scripts/bench/books.ts). Blocks changes to orders and lines while it runs.
create function private.rebuild_sales_rollup() returns void
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

-- sales_summary(now): today against yesterday and this week (from Monday) against last week
-- (Monday to Sunday): revenue, paid orders and delivery fees, read from the rollup; and the money
-- outstanding (orders still pending payment, and the balances of orders with a deposit not yet
-- paid: how many, their value, when the oldest was placed; and of those, the balances).
-- Security definer: an admin may see every order anyway (checked first), without row-level
-- security's per-row checks on 100,000 orders.
create function public.sales_summary(p_now timestamptz) returns jsonb
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
      'orders', count(*), 'value', coalesce(sum(u.due), 0)::text, 'oldest', min(u.created_at),
      'balances', count(*) filter (where u.balance), 'balancesValue', coalesce(sum(u.due) filter (where u.balance), 0)::text))
    from (
      select o.total as due, o.created_at, false as balance
      from public.orders o
      where o.status = 'pending_payment'
      union all
      select o.total - o.deposit, o.created_at, true
      from public.orders o
      where o.deposit is not null and o.balance_paid_at is null and o.status in ('pending_delivery', 'complete')
    ) u
  );
end
$$;
revoke execute on function public.sales_summary(timestamptz) from public, anon;
grant execute on function public.sales_summary(timestamptz) to authenticated, service_role;

-- sales_range(from, to): the days from `from` to `to` (inclusive, South African days): revenue
-- and paid orders per day (every day, zero where none), the range's totals and delivery fees,
-- the ten products that brought in most, and the revenue per business line (the product's
-- category now; lines of deleted products as "Other"), without the fee lines.
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
revoke execute on function public.sales_range(date, date) from public, anon;
grant execute on function public.sales_range(date, date) to authenticated, service_role;
