-- Online payments (src/server/payments/, docs/payments.md): "Pay now" through a hosted payment
-- page (PayFast first), beside bank transfer with a proof. An order paid online is placed by the
-- same path as every order (100_checkout.sql) and stays pending_payment until the provider's
-- notification is believed by the server and applied here by record_online_payment(), on the
-- server's service identity only, exactly once.

-- public.payments -----------------------------------------------------------------------------
-- A payment row per provider transaction (unique (provider, provider_payment_id)), written in one
-- transaction with the order's move to pending_delivery, its history and its mails, so a repeated
-- notification changes nothing.
create table public.payments (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  provider text not null check (provider in ('payfast')),
  -- The provider's own id of the transaction (PayFast's pf_payment_id).
  provider_payment_id text not null check (char_length(provider_payment_id) between 1 and 100),
  amount numeric(12, 2) not null check (amount > 0),
  -- applied: it paid the order; refund_due: the order was no longer payable when it arrived.
  outcome text not null check (outcome in ('applied', 'refund_due')),
  -- The notification's fields as verified (never the signature), for the admins and the books.
  details jsonb not null default '{}'::jsonb,
  received_at timestamptz not null default now(),
  unique (provider, provider_payment_id),
  -- What it paid: the order (its total, or its deposit) or the balance of an order with a deposit.
  part text not null default 'order' check (part in ('order', 'balance'))
);

create index payments_order_idx on public.payments (order_id);

alter table public.payments enable row level security;
-- Customers read the payments of their own orders, admins all. Nobody writes them through the
-- API: record_online_payment() does, for the server's service identity.
create policy "payments: owner or admin read" on public.payments
  for select to authenticated
  using (
    (select public.is_admin())
    or exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid()))
  );

revoke all on public.payments from anon, authenticated;
grant all on public.payments to service_role;
grant select on public.payments to authenticated;

-- public.payment_settings ---------------------------------------------------------------------
-- The provider's credentials: admins only; the server reads them as the service role.
-- Triggers (they fire in name order within each timing):
--   payment_settings_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change() (020_catalogue.sql)
--   payment_settings_stamp: before insert or update, per row -> public.stamp_shop_settings() (030_settings.sql)
create table public.payment_settings (
  id boolean primary key default true check (id),
  payfast_merchant_id text not null default '' check (payfast_merchant_id ~ '^([0-9]{1,20})?$'),
  payfast_merchant_key text not null default '' check (payfast_merchant_key ~ '^[A-Za-z0-9]{0,100}$'),
  payfast_passphrase text not null default '' check (char_length(payfast_passphrase) <= 100),
  payfast_sandbox boolean not null default false,
  updated_at timestamptz not null default now()
);

alter table public.payment_settings enable row level security;
create policy "payment_settings: admin read" on public.payment_settings
  for select to authenticated using ((select public.is_admin()));
create policy "payment_settings: admin insert" on public.payment_settings
  for insert to authenticated with check ((select public.is_admin()));
create policy "payment_settings: admin update" on public.payment_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

revoke all on public.payment_settings from anon, authenticated;
grant all on public.payment_settings to service_role;
grant select on public.payment_settings to authenticated;
grant insert (payfast_merchant_id, payfast_merchant_key, payfast_passphrase, payfast_sandbox),
      update (payfast_merchant_id, payfast_merchant_key, payfast_passphrase, payfast_sandbox) on public.payment_settings to authenticated;

create trigger payment_settings_stamp
  before insert or update on public.payment_settings
  for each row execute function public.stamp_shop_settings();
-- Whether checkout offers "Pay now" is part of the published settings every process keeps.
create trigger payment_settings_catalogue_changes
  after insert or update or delete or truncate on public.payment_settings
  for each statement execute function public.notify_catalogue_change();

-- Whether paying online is set up: a merchant id and key are saved (place_order_pay_now asks).
create function public.pay_now_available() returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(
    (select s.payfast_merchant_id <> '' and s.payfast_merchant_key <> '' from public.payment_settings s where s.id),
    false);
$$;
revoke execute on function public.pay_now_available() from public, anon, authenticated;
grant execute on function public.pay_now_available() to service_role;

-- A customer whose online payment did not go through pays by bank transfer after all: the proof
-- is attached to their own order, still pending payment and without one. Checked as place_order
-- checks a proof.
create function public.attach_payment_proof(p_order_id uuid, p_proof_path text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_order public.orders;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_order from public.orders where id = p_order_id and user_id = v_uid for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  if v_order.status <> 'pending_payment' or v_order.proof_path is not null then
    raise exception 'order_not_payable';
  end if;
  if p_proof_path is null or p_proof_path = ''
     or (storage.foldername(p_proof_path))[1] is distinct from v_uid::text
     or not exists (select 1 from storage.objects o where o.bucket_id = 'payments' and o.name = p_proof_path)
     or exists (select 1 from public.orders o where o.proof_path = p_proof_path or o.balance_proof_path = p_proof_path) then
    raise exception 'proof_invalid';
  end if;
  update public.orders set proof_path = p_proof_path, payment_method = 'bank_transfer'
  where id = p_order_id
  returning * into v_order;
  return v_order;
end
$$;
revoke execute on function public.attach_payment_proof(uuid, text) from public, anon;
grant execute on function public.attach_payment_proof(uuid, text) to authenticated, service_role;

-- The order a provider's notification names, as the server checks it before it asks the
-- provider to confirm: its reference, total and status, what checkout asked (due_now: the
-- deposit, or the total), and for an order with a deposit its balance's reference and amount.
-- Service identity only.
create function public.order_for_payment(p_order_id uuid)
returns table (id uuid, reference text, total numeric, status public.order_status, due_now numeric,
               balance_reference text, balance numeric)
language sql stable security definer set search_path = ''
as $$
  select o.id, o.reference, o.total, o.status, coalesce(o.deposit, o.total), o.balance_reference, o.total - o.deposit
  from public.orders o where o.id = p_order_id;
$$;
revoke execute on function public.order_for_payment(uuid) from public, anon, authenticated;
grant execute on function public.order_for_payment(uuid) to service_role;



-- Records one verified payment, once. Returns 'applied' (the order, or its balance, is paid now),
-- 'refund_due' (recorded; it was no longer payable) or 'duplicate' (this transaction was recorded
-- before: nothing changes, no mail is sent). p_reference says what was paid: the order's own
-- reference (or null) its total, or its deposit when it has one; its balance reference the
-- balance (docs/bookings.md). Refuses an unknown order or a different amount (the server checked
-- both; checked again under the order's lock). Service identity only: the server calls it after
-- every check the provider documents.
create function public.record_online_payment(
  p_provider text, p_provider_payment_id text, p_order_id uuid, p_amount numeric, p_details jsonb, p_reference text default null)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_order public.orders;
  v_outcome text;
  v_id uuid;
  v_label text := case p_provider when 'payfast' then 'PayFast' else p_provider end;
  v_balance boolean;
  v_part jsonb;
begin
  -- Concurrent copies of one notification queue here; the first writes, the rest find its row.
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  v_balance := p_reference is not null and p_reference is not distinct from v_order.balance_reference;
  if p_reference is not null and not v_balance and p_reference <> v_order.reference then
    raise exception 'order_unknown';
  end if;
  if p_amount is distinct from (case when v_balance then v_order.total - v_order.deposit else coalesce(v_order.deposit, v_order.total) end) then
    raise exception 'amount_mismatch';
  end if;
  if v_balance then
    v_outcome := case when v_order.status in ('pending_delivery', 'complete') and v_order.balance_paid_at is null then 'applied' else 'refund_due' end;
  else
    v_outcome := case when v_order.status = 'pending_payment' then 'applied' else 'refund_due' end;
  end if;

  insert into public.payments (order_id, provider, provider_payment_id, amount, outcome, details, part)
  values (p_order_id, p_provider, p_provider_payment_id, p_amount, v_outcome, coalesce(p_details, '{}'::jsonb),
          case when v_balance then 'balance' else 'order' end)
  on conflict (provider, provider_payment_id) do nothing
  returning id into v_id;
  if v_id is null then
    return 'duplicate';
  end if;

  if v_outcome = 'applied' and v_balance then
    perform private.pay_balance(p_order_id, p_provider);
  elsif v_outcome = 'applied' then
    -- The history says who: the payment, not a person (record_order_status reads the reason).
    perform set_config('shop.status_reason', 'Paid by ' || v_label, true);
    update public.orders set status = 'pending_delivery', payment_method = p_provider where id = p_order_id;
    perform set_config('shop.status_reason', '', true);
  else
    -- The order stays as it is; touching it tells Order Management (live) that it has news.
    update public.orders set updated_at = now() where id = p_order_id;
  end if;

  v_part := case when v_balance then '{"part": "balance"}'::jsonb
                 when v_order.deposit is not null then '{"part": "deposit"}'::jsonb
                 else '{}'::jsonb end;
  perform private.enqueue_customer_notice(v_order.user_id, v_order.customer_email, 'payment_received', jsonb_build_object(
    'customerName', v_order.customer_name, 'reference', v_order.reference, 'amount', p_amount,
    'provider', v_label, 'refundDue', v_outcome = 'refund_due') || v_part
    || case when v_balance or v_order.fulfilment_method is null then '{}'::jsonb
       else jsonb_build_object('fulfilment', jsonb_build_object('method', v_order.fulfilment_method, 'day', v_order.fulfilment_day)) end);
  perform private.enqueue_mail(private.shop_notice_address(), 'payment_notice', jsonb_build_object(
    'customerName', v_order.customer_name, 'customerEmail', v_order.customer_email, 'reference', v_order.reference,
    'amount', p_amount, 'provider', v_label, 'providerPaymentId', p_provider_payment_id, 'refundDue', v_outcome = 'refund_due') || v_part);
  return v_outcome;
end
$$;
revoke execute on function public.record_online_payment(text, text, uuid, numeric, jsonb, text) from public, anon, authenticated;
grant execute on function public.record_online_payment(text, text, uuid, numeric, jsonb, text) to service_role;

-- Balances ------------------------------------------------------------------------------------
-- private.pay_balance(order, method): the balance of an order with a deposit is paid: stamped
-- with how, and its own invoice issued for it (naming the deposit's), in the caller's
-- transaction. Touching the order tells Order Management (live).
create function private.pay_balance(p_order_id uuid, p_method text) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  update public.orders set balance_paid_at = now(), balance_payment_method = p_method where id = p_order_id;
  perform private.issue_invoice(p_order_id, 'balance');
end
$$;
revoke execute on function private.pay_balance(uuid, text) from public, anon, authenticated;

-- attach_balance_proof(order, proof): the customer pays their order's balance by bank transfer
-- (its own reference) and attaches the proof: their own order, its deposit received (Pending
-- Delivery or Complete), its balance neither paid nor with a proof. Checked as place_order checks
-- a proof.
create function public.attach_balance_proof(p_order_id uuid, p_proof_path text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_order public.orders;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_order from public.orders where id = p_order_id and user_id = v_uid for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  if v_order.deposit is null or v_order.balance_paid_at is not null or v_order.balance_proof_path is not null
     or v_order.status not in ('pending_delivery', 'complete') then
    raise exception 'balance_not_due';
  end if;
  if p_proof_path is null or p_proof_path = ''
     or (storage.foldername(p_proof_path))[1] is distinct from v_uid::text
     or not exists (select 1 from storage.objects o where o.bucket_id = 'payments' and o.name = p_proof_path)
     or exists (select 1 from public.orders o where o.proof_path = p_proof_path or o.balance_proof_path = p_proof_path) then
    raise exception 'proof_invalid';
  end if;
  update public.orders set balance_proof_path = p_proof_path, balance_payment_method = 'bank_transfer'
  where id = p_order_id
  returning * into v_order;
  return v_order;
end
$$;
revoke execute on function public.attach_balance_proof(uuid, text) from public, anon;
grant execute on function public.attach_balance_proof(uuid, text) to authenticated, service_role;

-- mark_balance_paid(order): an admin records that an order's balance arrived (by bank transfer,
-- or however it was paid): its own invoice, and the customer's mail. Refused ('balance_not_due')
-- unless the order has a balance not yet paid and its deposit was received.
create function public.mark_balance_paid(p_order_id uuid)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_order public.orders;
begin
  if not coalesce((select public.is_admin()), false) then
    raise exception 'admins_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  if v_order.deposit is null or v_order.balance_paid_at is not null or v_order.status not in ('pending_delivery', 'complete') then
    raise exception 'balance_not_due';
  end if;
  perform private.pay_balance(p_order_id, coalesce(v_order.balance_payment_method, 'bank_transfer'));
  perform private.enqueue_customer_notice(v_order.user_id, v_order.customer_email, 'payment_received', jsonb_build_object(
    'customerName', v_order.customer_name, 'reference', v_order.reference, 'amount', v_order.total - v_order.deposit,
    'provider', case coalesce(v_order.balance_payment_method, 'bank_transfer') when 'payfast' then 'PayFast' else 'bank transfer' end,
    'refundDue', false, 'part', 'balance'));
  select * into v_order from public.orders where id = p_order_id;
  return v_order;
end
$$;
revoke execute on function public.mark_balance_paid(uuid) from public, anon;
grant execute on function public.mark_balance_paid(uuid) to authenticated, service_role;
