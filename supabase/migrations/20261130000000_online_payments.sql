-- Online payments (ARCHITECTURE §17): "Pay now" through a hosted payment page (PayFast first),
-- beside bank transfer with a proof, which stays as it is.
--
-- * An order paid online is placed by the same path as every order (place_order's checks, the
--   customer's reserved reference, the total priced in SQL, the cart emptied), without a proof
--   file: public.place_order_pay_now(). It is `pending_payment` until the provider's notification
--   is believed by the server (signature, sender, amount and reference, the provider's own
--   confirmation) and applied here by public.record_online_payment(), on the server's service
--   identity only.
-- * Exactly once: a payment row per provider transaction (unique (provider, provider_payment_id)),
--   written in one transaction with the order's move to `pending_delivery`, its history event
--   ("Paid by PayFast") and the mails. A repeat of the same notification finds the row and
--   changes nothing. A payment for an order that is no longer payable (cancelled, or paid
--   already) is recorded as `refund_due` for the admins to refund; the order is left as it is.
-- * The provider's credentials are settings only admins read (public.payment_settings); the
--   server reads them as the service role to sign a payment, and everyone may ask whether paying
--   online is offered at all (public.pay_now_available()).

-- How an order is (to be) paid. Existing orders were all bank transfers.
alter table public.orders
  add column payment_method text not null default 'bank_transfer'
    check (payment_method in ('bank_transfer', 'payfast'));

-- Payments -----------------------------------------------------------------------------------------
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
  unique (provider, provider_payment_id)
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
grant select on public.payments to authenticated;
grant all on public.payments to service_role;

-- Payment settings (admins only) -----------------------------------------------------------------
create table public.payment_settings (
  id boolean primary key default true check (id),
  payfast_merchant_id text not null default '' check (payfast_merchant_id ~ '^([0-9]{1,20})?$'),
  payfast_merchant_key text not null default '' check (payfast_merchant_key ~ '^[A-Za-z0-9]{0,100}$'),
  payfast_passphrase text not null default '' check (char_length(payfast_passphrase) <= 100),
  payfast_sandbox boolean not null default false,
  updated_at timestamptz not null default now()
);
alter table public.payment_settings enable row level security;

create trigger payment_settings_stamp
  before insert or update on public.payment_settings
  for each row execute function public.stamp_shop_settings();
-- Whether checkout offers "Pay now" is part of the published settings every process keeps.
create trigger payment_settings_catalogue_changes
  after insert or update or delete or truncate on public.payment_settings
  for each statement execute function public.notify_catalogue_change();

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
      update (payfast_merchant_id, payfast_merchant_key, payfast_passphrase, payfast_sandbox)
  on public.payment_settings to authenticated;

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

-- Placing an order ---------------------------------------------------------------------------------
-- place_order's body, shared by both ways to pay (the text of 20261124000100_checkout_reference.sql,
-- with the proof required for bank transfers only). Private: reached through the two public
-- functions below, which pass the caller's own id.
create function private.place_order_for(p_uid uuid, p_idempotency_key uuid, p_reference text, p_proof_path text, p_payment_method text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_order public.orders;
  v_total numeric(12, 2);
  v_name text;
  v_email text;
begin
  if p_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_idempotency_key is null then
    raise exception 'idempotency_key_required';
  end if;

  -- One checkout at a time per customer: a retry or a double click waits here, then finds the
  -- order the first call made.
  perform pg_advisory_xact_lock(hashtextextended('place_order:' || p_uid::text, 0));

  select * into v_order from public.orders
  where user_id = p_uid and idempotency_key = p_idempotency_key;
  if found then
    return v_order;
  end if;

  if p_payment_method = 'bank_transfer' then
    if p_proof_path is null or p_proof_path = '' then
      raise exception 'proof_required';
    end if;
    if (storage.foldername(p_proof_path))[1] is distinct from p_uid::text
       or not exists (
         select 1 from storage.objects o where o.bucket_id = 'payments' and o.name = p_proof_path
       )
       or exists (select 1 from public.orders o where o.proof_path = p_proof_path) then
      raise exception 'proof_invalid';
    end if;
  elsif p_payment_method = 'payfast' then
    if p_proof_path is not null then
      raise exception 'proof_invalid';
    end if;
  else
    raise exception 'payment_method_invalid';
  end if;
  if p_reference is null or p_reference !~ '^ORD-[0-9]{1,6}$' then
    raise exception 'reference_invalid';
  end if;

  -- Lock the cart lines and the products they point at, so neither changes under us.
  perform 1
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = p_uid
  for update of c for share of p;
  if not found then
    raise exception 'cart_empty';
  end if;

  if exists (
    select 1 from public.cart_items c
    join public.products p on p.id = c.product_id
    where c.user_id = p_uid and not p.available
  ) then
    raise exception 'product_unavailable';
  end if;

  -- The reference paid with must be the one this customer holds reserved; deleting it checks and
  -- closes it at once (rolled back with everything else if anything below fails).
  delete from public.checkout_references r where r.user_id = p_uid and r.reference = p_reference;
  if not found then
    raise exception 'reference_stale';
  end if;

  select sum(p.price * c.quantity) into v_total
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = p_uid;

  select coalesce(nullif(btrim(pr.full_name), ''), pr.email, (select auth.email())),
         coalesce(pr.email, (select auth.email()))
  into v_name, v_email
  from public.profiles pr where pr.id = p_uid;
  if v_email is null then
    raise exception 'profile_missing';
  end if;

  insert into public.orders (reference, user_id, customer_name, customer_email, total, proof_path, idempotency_key, payment_method)
  values (p_reference, p_uid, v_name, v_email, v_total, p_proof_path, p_idempotency_key, p_payment_method)
  returning * into v_order;

  insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path)
  select v_order.id, p.id, p.name, p.price, c.quantity, p.image_path
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = p_uid
  order by c.added_at;

  delete from public.cart_items where user_id = p_uid;

  return v_order;
end
$$;
revoke execute on function private.place_order_for(uuid, uuid, text, text, text) from public, anon, authenticated;

-- Bank transfer with a proof: as before (same signature and grants).
create or replace function public.place_order(p_idempotency_key uuid, p_reference text, p_proof_path text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
begin
  return private.place_order_for((select auth.uid()), p_idempotency_key, p_reference, p_proof_path, 'bank_transfer');
end
$$;
revoke execute on function public.place_order(uuid, text, text) from public, anon;
grant execute on function public.place_order(uuid, text, text) to authenticated, service_role;

-- Pay now: the same order, no proof; paid when the provider's notification is applied.
create function public.place_order_pay_now(p_idempotency_key uuid, p_reference text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
begin
  if not public.pay_now_available() then
    raise exception 'pay_now_unavailable';
  end if;
  return private.place_order_for((select auth.uid()), p_idempotency_key, p_reference, null, 'payfast');
end
$$;
revoke execute on function public.place_order_pay_now(uuid, text) from public, anon;
grant execute on function public.place_order_pay_now(uuid, text) to authenticated, service_role;

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
     or exists (select 1 from public.orders o where o.proof_path = p_proof_path) then
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

-- Applying a verified notification -------------------------------------------------------------------
-- The order a provider's notification names, as the server checks it before it asks the
-- provider to confirm: its reference, total and status. Service identity only.
create function public.order_for_payment(p_order_id uuid)
returns table (id uuid, reference text, total numeric, status public.order_status)
language sql stable security definer set search_path = ''
as $$
  select o.id, o.reference, o.total, o.status from public.orders o where o.id = p_order_id;
$$;
revoke execute on function public.order_for_payment(uuid) from public, anon, authenticated;
grant execute on function public.order_for_payment(uuid) to service_role;

-- Records one verified payment, once. Returns 'applied' (the order is paid now), 'refund_due'
-- (recorded; the order was no longer payable) or 'duplicate' (this transaction was recorded
-- before: nothing changes, no mail is sent). Refuses an unknown order or a different amount
-- (the server checked both; checked again under the order's lock). Service identity only: the
-- server calls it after every check the provider documents.
create function public.record_online_payment(p_provider text, p_provider_payment_id text, p_order_id uuid, p_amount numeric, p_details jsonb)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_order public.orders;
  v_outcome text;
  v_id uuid;
  v_label text := case p_provider when 'payfast' then 'PayFast' else p_provider end;
begin
  -- Concurrent copies of one notification queue here; the first writes, the rest find its row.
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  if p_amount is distinct from v_order.total then
    raise exception 'amount_mismatch';
  end if;
  v_outcome := case when v_order.status = 'pending_payment' then 'applied' else 'refund_due' end;

  insert into public.payments (order_id, provider, provider_payment_id, amount, outcome, details)
  values (p_order_id, p_provider, p_provider_payment_id, p_amount, v_outcome, coalesce(p_details, '{}'::jsonb))
  on conflict (provider, provider_payment_id) do nothing
  returning id into v_id;
  if v_id is null then
    return 'duplicate';
  end if;

  if v_outcome = 'applied' then
    -- The history says who: the payment, not a person (record_order_status reads the reason).
    perform set_config('shop.status_reason', 'Paid by ' || v_label, true);
    update public.orders set status = 'pending_delivery', payment_method = p_provider where id = p_order_id;
    perform set_config('shop.status_reason', '', true);
  else
    -- The order stays as it is; touching it tells Order Management (live) that it has news.
    update public.orders set updated_at = now() where id = p_order_id;
  end if;

  perform private.enqueue_mail(v_order.customer_email, 'payment_received', jsonb_build_object(
    'customerName', v_order.customer_name, 'reference', v_order.reference, 'amount', p_amount,
    'provider', v_label, 'refundDue', v_outcome = 'refund_due'));
  perform private.enqueue_mail(private.shop_notice_address(), 'payment_notice', jsonb_build_object(
    'customerName', v_order.customer_name, 'customerEmail', v_order.customer_email, 'reference', v_order.reference,
    'amount', p_amount, 'provider', v_label, 'providerPaymentId', p_provider_payment_id, 'refundDue', v_outcome = 'refund_due'));
  return v_outcome;
end
$$;
revoke execute on function public.record_online_payment(text, text, uuid, numeric, jsonb) from public, anon, authenticated;
grant execute on function public.record_online_payment(text, text, uuid, numeric, jsonb) to service_role;

-- Mails ----------------------------------------------------------------------------------------------
alter table public.mail_outbox drop constraint mail_outbox_template_check;
alter table public.mail_outbox add constraint mail_outbox_template_check check (template in (
  'order_received', 'status_changed', 'order_cancelled_unpaid', 'new_order', 'contact_message', 'account_deleted',
  'payment_received', 'payment_notice'));

-- Order placed: as in 20261125000000_mail_outbox.sql, and both mails say how it is to be paid.
create or replace function public.mail_order_placed() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_items jsonb;
  v_count integer;
begin
  select coalesce(jsonb_agg(jsonb_build_object('name', i.product_name, 'quantity', i.quantity, 'unitPrice', i.unit_price) order by i.id), '[]'::jsonb),
         coalesce(sum(i.quantity), 0)
    into v_items, v_count
    from public.order_items i where i.order_id = new.id;
  perform private.enqueue_mail(new.customer_email, 'order_received', jsonb_build_object(
    'customerName', new.customer_name, 'reference', new.reference, 'items', v_items, 'total', new.total,
    'proofUploaded', new.proof_path is not null, 'paymentMethod', new.payment_method));
  perform private.enqueue_mail(private.shop_notice_address(), 'new_order', jsonb_build_object(
    'customerName', new.customer_name, 'customerEmail', new.customer_email, 'reference', new.reference,
    'total', new.total, 'itemCount', greatest(v_count, 1), 'paymentMethod', new.payment_method));
  return null;
end
$$;

-- Status changed: as in 20261129000100_invoices.sql (the mail names the invoice or credit note the
-- same change issued), but a change made by a payment has its own mails (above).
create or replace function public.mail_order_status() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_reason text := nullif(current_setting('shop.status_reason', true), '');
  v_days integer := substring(v_reason from 'within ([0-9]+) day')::integer;
  v_document jsonb;
begin
  if new.status is not distinct from old.status or v_reason like 'Paid by %' then
    return null;
  end if;
  select jsonb_build_object('id', i.id, 'number', i.number, 'kind', i.kind) into v_document
    from public.invoices i
    where i.order_id = new.id and i.issued_at = now()
    order by i.kind = 'credit_note' desc, i.serial desc
    limit 1;
  if new.status = 'cancelled' and v_days is not null then
    perform private.enqueue_mail(new.customer_email, 'order_cancelled_unpaid', jsonb_build_object(
      'customerName', new.customer_name, 'reference', new.reference, 'total', new.total, 'days', v_days));
  else
    perform private.enqueue_mail(new.customer_email, 'status_changed', jsonb_build_object(
      'customerName', new.customer_name, 'reference', new.reference, 'status', new.status)
      || case when v_document is null then '{}'::jsonb else jsonb_build_object('document', v_document) end);
  end if;
  return null;
end
$$;
