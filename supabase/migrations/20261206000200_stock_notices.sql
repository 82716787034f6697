-- Stock notices (issue 37, item 3; docs/architecture.md#products-variants-and-stock):
-- * Low stock: when a counted variant's stock comes to its low-stock mark or below (by a sale or
--   any change), admins are told once per crossing: a row of low_stock_notices (the live notice)
--   and a 'low_stock' mail to the shop's notice address. product_variants.low_stock_notified_at
--   remembers the crossing; going back above the mark clears it, so the next crossing tells again.
-- * Back in stock: a signed-in customer may ask to be mailed when a sold-out variant is back
--   (back_in_stock_requests, their own rows only). When its stock goes from 0 to more, each
--   request gets one 'back_in_stock' mail and is deleted in the same transaction.

-- Low stock -------------------------------------------------------------------------------------
alter table public.product_variants add column low_stock_notified_at timestamptz;
-- Variants at or below their mark today were crossed before anyone was counting: no notice for them.
update public.product_variants set low_stock_notified_at = now()
  where stock is not null and low_stock_at is not null and stock <= low_stock_at;

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

alter publication supabase_realtime add table public.low_stock_notices;

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

-- A crossing marked: the live notice for admins and a mail to the shop's notice address.
create function public.notice_low_stock() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
  v_name text;
begin
  select public.variant_line_name(p.name, new.option_values) into v_name from public.products p where p.id = new.product_id;
  insert into public.low_stock_notices (variant_id, stock, low_stock_at)
    values (new.id, new.stock, new.low_stock_at) returning id into v_id;
  perform pg_notify('shop_changes', json_build_object('table', 'low_stock_notices', 'op', 'INSERT', 'id', v_id)::text);
  perform private.enqueue_mail(private.shop_notice_address(), 'low_stock', jsonb_strip_nulls(jsonb_build_object(
    'productId', new.product_id, 'productName', v_name, 'sku', new.sku, 'stock', new.stock, 'lowStockAt', new.low_stock_at)));
  return null;
end
$$;
revoke execute on function public.notice_low_stock() from public, anon, authenticated;
grant execute on function public.notice_low_stock() to service_role;
create trigger product_variants_low_stock_notice
  after update of stock, low_stock_at on public.product_variants
  for each row when (old.low_stock_notified_at is null and new.low_stock_notified_at is not null)
  execute function public.notice_low_stock();

-- Back in stock -----------------------------------------------------------------------------------
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

-- Back in stock: one mail per request, and the request is gone (POPIA: asked once, told once).
create function public.mail_back_in_stock() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_request record;
  v_name text;
begin
  select public.variant_line_name(p.name, new.option_values) into v_name from public.products p where p.id = new.product_id;
  for v_request in
    delete from public.back_in_stock_requests r using public.profiles p
    where r.variant_id = new.id and p.id = r.user_id
    returning p.email, coalesce(nullif(btrim(p.full_name), ''), p.email) as customer_name
  loop
    perform private.enqueue_mail(v_request.email, 'back_in_stock', jsonb_build_object(
      'customerName', v_request.customer_name, 'productId', new.product_id, 'productName', v_name));
  end loop;
  return null;
end
$$;
revoke execute on function public.mail_back_in_stock() from public, anon, authenticated;
grant execute on function public.mail_back_in_stock() to service_role;
create trigger product_variants_back_in_stock
  after update of stock on public.product_variants
  for each row when (old.stock = 0 and (new.stock is null or new.stock > 0))
  execute function public.mail_back_in_stock();

-- Mails -----------------------------------------------------------------------------------------
alter table public.mail_outbox drop constraint mail_outbox_template_check;
alter table public.mail_outbox add constraint mail_outbox_template_check check (template in (
  'order_received', 'status_changed', 'order_cancelled_unpaid', 'new_order', 'contact_message', 'account_deleted',
  'payment_received', 'payment_notice', 'password_reset', 'email_change_confirm', 'email_change_notice',
  'low_stock', 'back_in_stock'));
