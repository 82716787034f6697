-- Tax invoices and credit notes (src/server/invoices/, docs/invoices-and-overview.md). When an
-- order becomes paid (out of pending_payment into pending_delivery or complete), a trigger issues
-- one invoice in the same transaction: the next number of a counter row (gap-free, never reused)
-- and a frozen snapshot of everything the PDF prints. A cancelled paid order gets a credit note
-- that references its invoice, numbered the same way from its own counter.

-- When and by whom: stamped here, so no caller can write them.
create function public.stamp_invoice_settings() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  new.updated_at := now();
  new.updated_by := (select auth.uid());
  return new;
end
$$;
revoke execute on function public.stamp_invoice_settings() from public, anon, authenticated;
grant execute on function public.stamp_invoice_settings() to service_role;

-- public.invoice_settings ---------------------------------------------------------------------
-- Their own table (not shop_settings): admins only, since nothing here is shown before an invoice
-- is issued, and the invoice itself carries a copy. Seeded on first start from SHOP_VAT_NUMBER,
-- SHOP_LEGAL_NAME, SHOP_LEGAL_ADDRESS and INVOICE_PREFIX (src/server/invoices/defaults.ts), on
-- Supabase by supabase/seed.sql.
-- Triggers (they fire in name order within each timing):
--   invoice_settings_stamp: before insert or update, per row -> public.stamp_invoice_settings()
create table public.invoice_settings (
  id boolean primary key default true check (id),
  vat_registered boolean not null default false,
  -- SARS VAT numbers: ten digits starting with 4. Empty while the shop is not registered.
  vat_number text not null default '' check (vat_number = '' or vat_number ~ '^4[0-9]{9}$'),
  legal_name text not null check (char_length(btrim(legal_name)) between 1 and 120),
  legal_address text not null check (char_length(btrim(legal_address)) between 1 and 300),
  invoice_prefix text not null default 'INV-' check (invoice_prefix ~ '^[A-Z0-9][A-Z0-9/-]{0,11}$'),
  updated_at timestamptz not null default now(),
  updated_by uuid references public.profiles (id) on delete set null,
  check (not vat_registered or vat_number <> '')
);

alter table public.invoice_settings enable row level security;
create policy "invoice_settings: admin read" on public.invoice_settings
  for select to authenticated using ((select public.is_admin()));
create policy "invoice_settings: admin insert" on public.invoice_settings
  for insert to authenticated with check ((select public.is_admin()));
create policy "invoice_settings: admin update" on public.invoice_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

revoke all on public.invoice_settings from anon, authenticated;
grant all on public.invoice_settings to service_role;
grant select on public.invoice_settings to authenticated;
grant insert (vat_registered, vat_number, legal_name, legal_address, invoice_prefix),
      update (vat_registered, vat_number, legal_name, legal_address, invoice_prefix) on public.invoice_settings to authenticated;

create trigger invoice_settings_stamp
  before insert or update on public.invoice_settings
  for each row execute function public.stamp_invoice_settings();

-- public.invoice_counters ---------------------------------------------------------------------
-- One row per kind: the number is taken by `update ... set last_number = last_number + 1`, which
-- holds the row's lock until the transaction ends, so numbers are gap-free and never reused.
create table public.invoice_counters (
  kind text primary key check (kind in ('invoice', 'credit_note')),
  last_number bigint not null default 0 check (last_number >= 0)
);

alter table public.invoice_counters enable row level security;
create policy "invoice_counters: admin read" on public.invoice_counters
  for select to authenticated using ((select public.is_admin()));

revoke all on public.invoice_counters from anon, authenticated;
grant all on public.invoice_counters to service_role;
grant select on public.invoice_counters to authenticated;

insert into public.invoice_counters (kind) values ('invoice'), ('credit_note')
on conflict (kind) do nothing;

-- Nobody changes an issued document, not even the table's owner or service_role (RLS does not
-- bind them). Deleting is only the order's own deletion cascading (the retention purge after 5
-- years): by then the order row is gone.
create function public.keep_invoices_unchanged() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'TRUNCATE') then
    raise exception 'invoice_immutable' using errcode = '42501';
  end if;
  if exists (select 1 from public.orders o where o.id = old.order_id) then
    raise exception 'invoice_immutable' using errcode = '42501';
  end if;
  return old;
end
$$;
revoke execute on function public.keep_invoices_unchanged() from public, anon, authenticated;
grant execute on function public.keep_invoices_unchanged() to service_role;

-- public.invoices -----------------------------------------------------------------------------
-- Issued documents: everything the PDF prints, frozen. Nobody can change or delete one (no
-- privilege or policy for the API roles, and a trigger that refuses even the table's owner); they
-- go only with their order, after the 5 years of record keeping.
-- Triggers (they fire in name order within each timing):
--   invoices_no_truncate: before truncate, per statement -> public.keep_invoices_unchanged()
--   invoices_unchanged: before delete or update, per row -> public.keep_invoices_unchanged()
create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  kind text not null check (kind in ('invoice', 'credit_note')),
  -- The counter's number; `number` is how it is printed (the prefix at the time of issue).
  serial bigint not null check (serial > 0),
  number text not null unique check (char_length(number) between 1 and 40),
  -- A credit note's invoice. An invoice has one credit note for each booked line of it cancelled
  -- on its own (credits_item_id), and one for all that was left of it when its order was cancelled.
  credits_invoice_id uuid references public.invoices (id) on delete cascade,
  issued_at timestamptz not null default now(),
  total numeric(12, 2) not null,
  vat numeric(12, 2) not null,
  -- Everything the PDF prints, frozen (src/server/invoices/snapshot.ts reads it).
  snapshot jsonb not null,
  -- A credit note for one booked line of the invoice, cancelled on its own while the rest of the
  -- order goes on (cancel_booking(), 095_bookings.sql). Null on invoices and on the credit note
  -- for what was left of an invoice.
  credits_item_id uuid references public.order_items (id) on delete cascade,
  unique (kind, serial),
  check ((kind = 'credit_note') = (credits_invoice_id is not null)),
  constraint invoices_credits_item_shape check (credits_item_id is null or kind = 'credit_note')
);

create index invoices_order_idx on public.invoices (order_id, issued_at);
create index invoices_credits_idx on public.invoices (credits_invoice_id) where credits_invoice_id is not null;

alter table public.invoices enable row level security;
create policy "invoices: read with the order" on public.invoices
  for select to authenticated
  using (exists (
    select 1 from public.orders o
    where o.id = order_id and (o.user_id = (select auth.uid()) or (select public.is_admin()))
  ));

revoke all on public.invoices from anon, authenticated;
grant all on public.invoices to service_role;
grant select on public.invoices to authenticated;

create trigger invoices_unchanged
  before update or delete on public.invoices
  for each row execute function public.keep_invoices_unchanged();
create trigger invoices_no_truncate
  before truncate on public.invoices
  for each statement execute function public.keep_invoices_unchanged();

-- public.invoice_downloads --------------------------------------------------------------------
-- Every download, so the second and later print "Copy".
create table public.invoice_downloads (
  id bigint generated always as identity primary key,
  invoice_id uuid not null references public.invoices (id) on delete cascade,
  downloaded_by uuid references public.profiles (id) on delete set null,
  downloaded_at timestamptz not null default now()
);

create index invoice_downloads_invoice_idx on public.invoice_downloads (invoice_id);

alter table public.invoice_downloads enable row level security;
create policy "invoice_downloads: read with the invoice" on public.invoice_downloads
  for select to authenticated
  using (exists (
    select 1 from public.invoices i join public.orders o on o.id = i.order_id
    where i.id = invoice_id and (o.user_id = (select auth.uid()) or (select public.is_admin()))
  ));

revoke all on public.invoice_downloads from anon, authenticated;
grant all on public.invoice_downloads to service_role;
grant select on public.invoice_downloads to authenticated;

-- record_invoice_download(invoice): records the caller's download and returns which it is (1: the
-- original; more: a copy). Security definer because downloads are written by nobody else, and two
-- first downloads at once must not both be the original (the advisory lock orders them); it
-- checks itself that the caller may read the invoice (its owner or an admin).
create function public.record_invoice_download(p_invoice_id uuid) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_count integer;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if not exists (
    select 1 from public.invoices i join public.orders o on o.id = i.order_id
    where i.id = p_invoice_id and (o.user_id = v_uid or (select public.is_admin()))
  ) then
    raise exception 'invoice_not_found' using errcode = 'P0002';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('invoice_download:' || p_invoice_id::text, 0));
  insert into public.invoice_downloads (invoice_id, downloaded_by) values (p_invoice_id, v_uid);
  select count(*)::integer into v_count from public.invoice_downloads where invoice_id = p_invoice_id;
  return v_count;
end
$$;
revoke execute on function public.record_invoice_download(uuid) from public, anon;
grant execute on function public.record_invoice_download(uuid) to authenticated, service_role;

-- The rate and the threshold, as src/lib/constants.ts has them (tests/db/invoices.test.ts holds
-- the two equal). Functions, so the snapshot code reads them by name.
create function private.vat_rate_percent() returns numeric
language sql immutable set search_path = '' as $$ select 15::numeric $$;
revoke execute on function private.vat_rate_percent() from public, anon, authenticated;

-- Above this amount (VAT inclusive) a full tax invoice with the buyer's details; at or below it an abridged one.
create function private.full_tax_invoice_above() returns numeric
language sql immutable set search_path = '' as $$ select 5000::numeric $$;
revoke execute on function private.full_tax_invoice_above() from public, anon, authenticated;

-- VAT in VAT-inclusive amounts, per line and in total, agreeing to the cent: the total's VAT is
-- round(total × rate / (100 + rate), 2); each line gets its exact share rounded down, and the
-- cents left over go to the lines with the largest remainders (ties: the earlier line). So every
-- line is within a cent of its exact VAT and the lines add up to the total's.
create function private.vat_allocation(p_amounts numeric[], p_rate numeric) returns numeric[]
language sql immutable set search_path = ''
as $$
  with lines as (
    select u.n, u.amount * p_rate / (100 + p_rate) * 100 as exact_cents
    from unnest(p_amounts) with ordinality as u (amount, n)
  ),
  floors as (
    select n, floor(exact_cents) as base_cents, exact_cents - floor(exact_cents) as remainder from lines
  ),
  target as (
    select round(coalesce(sum(a), 0) * p_rate / (100 + p_rate), 2) * 100 as vat_cents from unnest(p_amounts) as a
  ),
  ranked as (
    select f.n, f.base_cents,
           row_number() over (order by f.remainder desc, f.n) as rank,
           t.vat_cents - sum(f.base_cents) over () as extra_cents
    from floors f cross join target t
  )
  select coalesce(array_agg(((base_cents + case when rank <= extra_cents then 1 else 0 end) / 100)::numeric(12, 2) order by n), '{}')
  from ranked
$$;
revoke execute on function private.vat_allocation(numeric[], numeric) from public, anon, authenticated;

-- private.invoice_open(invoice): the invoice is not yet credited in full (no credit note for all
-- that was left of it; a credit note for one cancelled line leaves it open).
create function private.invoice_open(p_invoice_id uuid) returns boolean
language sql stable set search_path = ''
as $$
  select not exists (select 1 from public.invoices c where c.credits_invoice_id = p_invoice_id and c.credits_item_id is null)
$$;
revoke execute on function private.invoice_open(uuid) from public, anon, authenticated;

-- private.lines_name_items(snapshot): every line of an invoice's snapshot names its order line
-- (itemId); invoices issued before lines did are credited by amount instead.
create function private.lines_name_items(p_snapshot jsonb) returns boolean
language sql immutable set search_path = ''
as $$
  select not exists (select 1 from jsonb_array_elements(p_snapshot -> 'lines') l where not l ? 'itemId')
$$;
revoke execute on function private.lines_name_items(jsonb) from public, anon, authenticated;

-- private.issue_invoice(order, part): the next invoice number and the snapshot, from the order's
-- lines as sold (but booked lines cancelled on their own; each line names its order line), the buyer's profile and the settings as they are now. Each payment received is a
-- time of supply with its own invoice for its amount (docs/bookings.md): part 'full' is the whole
-- order; 'deposit' what checkout asked of an order with a deposit (every line in full but the
-- booked lines' deposits, "Deposit: ..."); 'balance' the rest ("Balance: ...", naming the deposit's
-- invoice). Null, and no number taken, when the part comes to nothing.
create function private.issue_invoice(p_order_id uuid, p_part text default 'full') returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_settings public.invoice_settings;
  v_order public.orders;
  v_company text := '';
  v_address text := '';
  v_buyer_vat text := '';
  v_serial bigint;
  v_amounts numeric[];
  v_vats numeric[];
  v_lines jsonb;
  v_vat numeric(12, 2) := 0;
  v_rate numeric := private.vat_rate_percent();
  v_document text;
  v_number text;
  v_quote text;
  v_id uuid;
  v_total numeric(12, 2);
  v_deposit_invoice jsonb;
begin
  if p_part is null or p_part not in ('full', 'deposit', 'balance') then
    raise exception 'invoice_part_invalid';
  end if;
  select * into v_settings from public.invoice_settings where id;
  if not found then
    -- No settings saved or seeded yet (the start-up seed creates them): a payment is never
    -- refused for it. A plain invoice, as for a shop not registered for VAT, in the demo name.
    v_settings.vat_registered := false;
    v_settings.vat_number := '';
    v_settings.legal_name := 'Our World Services';
    v_settings.legal_address := coalesce(
      (select nullif(btrim(contact_address), '') from public.shop_settings where id), 'South Africa');
    v_settings.invoice_prefix := 'INV-';
  end if;
  select * into v_order from public.orders where id = p_order_id;
  select p.invoice_company, p.invoice_address, p.invoice_vat_number
    into v_company, v_address, v_buyer_vat
    from public.profiles p where p.id = v_order.user_id;
  -- An order accepted from a quote (105_quotes.sql) names the quote, and the customer's
  -- purchase-order number when they gave one.
  select r.number into v_quote
    from public.quotes q join public.quote_requests r on r.id = q.request_id
    where q.id = v_order.quote_id;

  select array_agg(l.amount order by l.id),
         jsonb_agg(jsonb_build_object(
           'itemId', l.id,
           'description', case when l.split then case p_part when 'deposit' then 'Deposit: ' else 'Balance: ' end else '' end
                          || public.order_line_label(l.product_name, l.personalisation),
           'quantity', case when l.split then 1 else l.quantity end,
           'unitPrice', (case when l.split then l.amount else l.unit_price end)::text, 'amount', l.amount::text) order by l.id),
         sum(l.amount)
    into v_amounts, v_lines, v_total
    from (
      select i.id, i.product_name, i.personalisation, i.quantity, i.unit_price,
             p_part <> 'full' and i.deposit is not null as split,
             (case p_part
                when 'full' then i.unit_price * i.quantity
                when 'deposit' then coalesce(i.deposit, i.unit_price * i.quantity)
                else i.unit_price * i.quantity - coalesce(i.deposit, i.unit_price * i.quantity)
              end)::numeric(12, 2) as amount
      from public.order_items i where i.order_id = p_order_id and i.cancelled_at is null
    ) l
    where l.amount > 0;
  if coalesce(v_total, 0) = 0 then
    return null;
  end if;
  if p_part = 'balance' then
    select jsonb_build_object('number', i.number, 'issuedAt', i.issued_at) into v_deposit_invoice
      from public.invoices i
      where i.order_id = p_order_id and i.kind = 'invoice' and i.snapshot ->> 'part' = 'deposit'
      order by i.serial desc
      limit 1;
  end if;

  if v_settings.vat_registered then
    v_vats := private.vat_allocation(v_amounts, v_rate);
    select jsonb_agg(l.line || jsonb_build_object('vat', v_vats[l.n]::text) order by l.n)
      into v_lines
      from jsonb_array_elements(v_lines) with ordinality as l (line, n);
    select coalesce(sum(x), 0) into v_vat from unnest(v_vats) as x;
    v_document := 'tax_invoice';
  else
    v_document := 'invoice';
  end if;

  update public.invoice_counters set last_number = last_number + 1 where kind = 'invoice'
    returning last_number into v_serial;
  v_number := v_settings.invoice_prefix || lpad(v_serial::text, 6, '0');

  insert into public.invoices (order_id, kind, serial, number, total, vat, snapshot)
  values (p_order_id, 'invoice', v_serial, v_number, v_total, v_vat, jsonb_build_object(
    'version', 1,
    'document', v_document,
    'full', v_settings.vat_registered and v_total > private.full_tax_invoice_above(),
    'number', v_number,
    'issuedAt', now(),
    'orderReference', v_order.reference,
    'orderDate', v_order.created_at,
    'quoteNumber', v_quote,
    'purchaseOrder', v_order.purchase_order,
    'seller', jsonb_build_object(
      'name', v_settings.legal_name, 'address', v_settings.legal_address,
      'vatNumber', case when v_settings.vat_registered then v_settings.vat_number end),
    'buyer', jsonb_build_object(
      'name', v_order.customer_name, 'email', v_order.customer_email,
      'company', coalesce(v_company, ''), 'address', coalesce(v_address, ''), 'vatNumber', coalesce(v_buyer_vat, '')),
    'vatRate', case when v_settings.vat_registered then v_rate end,
    'lines', coalesce(v_lines, '[]'::jsonb),
    'total', v_total::text,
    'vat', v_vat::text,
    'exclusive', (v_total - v_vat)::numeric(12, 2)::text)
    || case when p_part = 'full' then '{}'::jsonb else jsonb_build_object('part', p_part) end
    || case when v_deposit_invoice is null then '{}'::jsonb else jsonb_build_object('depositInvoice', v_deposit_invoice) end)
  returning id into v_id;
  return v_id;
end
$$;
revoke execute on function private.issue_invoice(uuid, text) from public, anon, authenticated;

-- private.issue_credit_note(invoice, item): a credit note under the next credit-note number, naming
-- the invoice it credits, with the seller's and buyer's details as on the invoice. Without an
-- item it credits all that is left of the invoice: its lines but those of booked lines cancelled
-- on their own since (each credited then, or its deposit kept); with one, that line of the
-- invoice alone (cancel_booking(), 095_bookings.sql). Invoices issued before their lines named
-- the order line (no itemId) are credited by amount, as one line. Null, and no number taken, when
-- nothing is left to credit.
create function private.issue_credit_note(p_invoice_id uuid, p_item_id uuid default null) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_invoice public.invoices;
  v_item public.order_items;
  v_lines jsonb;
  v_total numeric(12, 2);
  v_vat numeric(12, 2) := 0;
  v_rate numeric;
  v_description text;
  v_prefix text;
  v_serial bigint;
  v_number text;
  v_id uuid;
begin
  select * into v_invoice from public.invoices where id = p_invoice_id;
  if private.lines_name_items(v_invoice.snapshot) then
    select jsonb_agg(l.line order by l.n), sum((l.line ->> 'amount')::numeric), coalesce(sum((l.line ->> 'vat')::numeric), 0)
      into v_lines, v_total, v_vat
      from jsonb_array_elements(v_invoice.snapshot -> 'lines') with ordinality as l (line, n)
      where case when p_item_id is null
              then not exists (select 1 from public.order_items i
                               where i.id = (l.line ->> 'itemId')::uuid and i.cancelled_at is not null)
              else (l.line ->> 'itemId')::uuid = p_item_id end;
  elsif p_item_id is null and not exists (
          select 1 from public.invoices c where c.credits_invoice_id = v_invoice.id and c.credits_item_id is not null)
        and not (v_invoice.snapshot ->> 'part' is not distinct from 'deposit' and exists (
          select 1 from public.order_items i where i.order_id = v_invoice.order_id and i.kept > 0)) then
    v_lines := v_invoice.snapshot -> 'lines';
    v_total := v_invoice.total;
    v_vat := v_invoice.vat;
  else
    if p_item_id is null then
      v_total := v_invoice.total
        - coalesce((select sum(c.total) from public.invoices c where c.credits_invoice_id = v_invoice.id), 0)
        - case when v_invoice.snapshot ->> 'part' = 'deposit'
            then coalesce((select sum(i.kept) from public.order_items i where i.order_id = v_invoice.order_id), 0) else 0 end;
      v_description := 'What was left of invoice ' || v_invoice.number;
    else
      select * into v_item from public.order_items where id = p_item_id;
      v_total := case v_invoice.snapshot ->> 'part'
                   when 'deposit' then coalesce(v_item.deposit, v_item.unit_price * v_item.quantity)
                   when 'balance' then v_item.unit_price * v_item.quantity - coalesce(v_item.deposit, v_item.unit_price * v_item.quantity)
                   else v_item.unit_price * v_item.quantity
                 end;
      v_description := case when v_item.deposit is not null and v_invoice.snapshot ? 'part'
                         then case v_invoice.snapshot ->> 'part' when 'deposit' then 'Deposit: ' else 'Balance: ' end else '' end
                       || public.order_line_label(v_item.product_name, v_item.personalisation);
    end if;
    v_rate := (v_invoice.snapshot ->> 'vatRate')::numeric;
    if v_rate is not null and v_total > 0 then
      v_vat := (private.vat_allocation(array[v_total], v_rate))[1];
    end if;
    v_lines := jsonb_build_array(jsonb_build_object('description', v_description, 'quantity', 1,
      'unitPrice', v_total::text, 'amount', v_total::text)
      || case when v_rate is null then '{}'::jsonb else jsonb_build_object('vat', v_vat::text) end);
  end if;
  if coalesce(v_total, 0) <= 0 then
    return null;
  end if;
  v_prefix := coalesce((select invoice_prefix from public.invoice_settings where id), 'INV-');
  update public.invoice_counters set last_number = last_number + 1 where kind = 'credit_note'
    returning last_number into v_serial;
  v_number := v_prefix || 'CN' || lpad(v_serial::text, 6, '0');
  insert into public.invoices (order_id, kind, serial, number, credits_invoice_id, credits_item_id, total, vat, snapshot)
  values (v_invoice.order_id, 'credit_note', v_serial, v_number, v_invoice.id, p_item_id, v_total, v_vat,
    v_invoice.snapshot || jsonb_build_object(
      'document', 'credit_note',
      'number', v_number,
      'issuedAt', now(),
      'credits', jsonb_build_object('number', v_invoice.number, 'issuedAt', v_invoice.issued_at),
      'lines', v_lines,
      'total', v_total::text,
      'vat', v_vat::text,
      'exclusive', (v_total - v_vat)::numeric(12, 2)::text)
    || case when v_total = v_invoice.total then '{}'::jsonb else jsonb_build_object('partial', true) end)
  returning id into v_id;
  return v_id;
end
$$;
revoke execute on function private.issue_credit_note(uuid, uuid) from public, anon, authenticated;

-- The trigger: an order becoming paid gets an invoice (for its deposit, when it has one) unless
-- it holds one not yet credited (a move between the paid statuses issues nothing); a cancelled
-- order gets a credit note for what is left of each such invoice, but a deposit's is kept (not credited) once
-- the cancellation is past its bookings' refund rule (private.deposit_refundable(),
-- 095_bookings.sql). Runs before orders_mail_status (triggers fire by name), so the mail names it.
create function public.invoice_paid_order() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_open uuid;
  v_refundable boolean;
begin
  if new.status is not distinct from old.status then
    return null;
  end if;
  if new.status in ('pending_delivery', 'complete') and old.status not in ('pending_delivery', 'complete')
     and not exists (
       select 1 from public.invoices i
       where i.order_id = new.id and i.kind = 'invoice'
         and private.invoice_open(i.id)) then
    perform private.issue_invoice(new.id, case when new.deposit is null then 'full' else 'deposit' end);
  elsif new.status = 'cancelled' then
    v_refundable := new.deposit is null or private.deposit_refundable(new.id);
    for v_open in
      select i.id from public.invoices i
      where i.order_id = new.id and i.kind = 'invoice'
        and private.invoice_open(i.id)
        and (v_refundable or i.snapshot ->> 'part' is distinct from 'deposit')
      order by i.serial
    loop
      perform private.issue_credit_note(v_open);
    end loop;
  end if;
  return null;
end
$$;
revoke execute on function public.invoice_paid_order() from public, anon, authenticated;
grant execute on function public.invoice_paid_order() to service_role;
create trigger orders_invoice_payment
  after update of status on public.orders
  for each row execute function public.invoice_paid_order();
