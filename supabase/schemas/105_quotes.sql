-- Quotes (src/server/quotes/, docs/quotes.md): a signed-in customer asks for a quote; admins price
-- it as a draft and send it, which numbers it (Q-000001, from a counter row: gap-free, never
-- reused) and freezes its lines; the customer accepts, declines (with a reason) or asks for a
-- change, answered by a revision: a new version that supersedes the last. Accepting is one
-- function, accept_quote(), which checks the state and the validity date at that moment and
-- creates exactly one order at the quoted prices (orders.quote_id is unique), as place_order
-- (100_checkout.sql) creates orders: its own reference, lines, counted stock, pending_payment.
-- Every change goes through the functions below (security definer, each checking who calls);
-- the API roles only read, under RLS: a customer their own requests and the versions sent to
-- them, admins everything.

-- A quote version's life: draft (admins only see it) → sent → accepted, declined or superseded
-- (a later version was sent). "Expired" is a sent version past its validity date: not stored,
-- since it happens by the clock; public.quote_state() words it and accept_quote() refuses it.
create type public.quote_status as enum ('draft', 'sent', 'accepted', 'declined', 'superseded');

-- public.quote_counters -----------------------------------------------------------------------
-- One row: the number is taken by `update ... set last_number = last_number + 1` when a request's
-- first version is sent (its revisions keep the number), holding the row's lock until the
-- transaction ends, so numbers are gap-free and never reused, as invoice numbers are.
create table public.quote_counters (
  id boolean primary key default true check (id),
  last_number bigint not null default 0 check (last_number >= 0)
);

alter table public.quote_counters enable row level security;
create policy "quote_counters: admin read" on public.quote_counters
  for select to authenticated using ((select public.is_admin()));

revoke all on public.quote_counters from anon, authenticated;
grant all on public.quote_counters to service_role;
grant select on public.quote_counters to authenticated;

insert into public.quote_counters (id) values (true) on conflict (id) do nothing;

-- public.quote_requests -----------------------------------------------------------------------
-- What the customer asked for, as they asked it; its versions (quotes) are the shop's answers.
-- The customer's name and e-mail are kept as they were, as on orders; like orders, a request
-- stays for the records (user_id null: admins alone read it) when the customer deletes their
-- account, so an accepted quote's order still names its quote.
-- Triggers (they fire in name order within each timing):
--   quote_requests_notify: after insert or update, per row -> public.notify_shop_change() (040_cart_and_orders.sql)
create table public.quote_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references public.profiles (id) on delete set null,
  customer_name text not null check (char_length(customer_name) <= 255),
  customer_email text not null check (char_length(customer_email) <= 255),
  -- What they need, in their words.
  description text not null check (char_length(btrim(description)) between 1 and 5000),
  -- The products and quantities they named (from a product's page or their cart):
  -- [{"productId", "variantId", "name", "quantity"}], names as they were; [] for none.
  items jsonb not null default '[]' check (jsonb_typeof(items) = 'array' and jsonb_array_length(items) <= 50),
  preferred_date date,
  company_name text not null default '' check (char_length(company_name) <= 120),
  vat_number text not null default '' check (vat_number = '' or vat_number ~ '^4[0-9]{9}$'),
  -- Q-000001: given when its first version is sent, kept by its revisions.
  serial bigint unique check (serial > 0),
  number text unique check (number ~ '^Q-[0-9]{6,}$'),
  -- The last time the customer asked for a change that no version sent since has answered.
  change_asked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((serial is null) = (number is null))
);

create index quote_requests_user_created_idx on public.quote_requests (user_id, created_at desc);
create index quote_requests_updated_idx on public.quote_requests (updated_at desc, id desc);

alter table public.quote_requests enable row level security;
create policy "quote_requests: read own or admin" on public.quote_requests
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));

revoke all on public.quote_requests from anon, authenticated;
grant all on public.quote_requests to service_role;
grant select on public.quote_requests to authenticated;

create trigger quote_requests_notify
  after insert or update on public.quote_requests
  for each row execute function public.notify_shop_change();

-- public.quotes -------------------------------------------------------------------------------
-- The versions of a request's quote. The customer sees a version once it is sent.
-- Triggers (they fire in name order within each timing):
--   quotes_frozen: before update or delete, per row -> public.keep_sent_quotes_unchanged()
create table public.quotes (
  id uuid primary key default gen_random_uuid(),
  request_id uuid not null references public.quote_requests (id) on delete cascade,
  version integer not null check (version between 1 and 1000),
  status public.quote_status not null default 'draft',
  -- The last day it can be accepted (South African time), inclusive.
  valid_until date not null,
  terms text not null default '' check (char_length(terms) <= 4000),
  note text not null default '' check (char_length(note) <= 4000),
  -- The sum of its lines, VAT inclusive (computed by save_quote_draft()).
  total numeric(12, 2) not null default 0 check (total >= 0),
  sent_at timestamptz,
  decided_at timestamptz,
  decline_reason text check (char_length(decline_reason) between 1 and 1000),
  -- The customer's purchase-order number, given when accepting (printed on the invoice).
  purchase_order text check (char_length(purchase_order) between 1 and 60),
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (request_id, version),
  check ((status = 'draft') = (sent_at is null)),
  check ((status = 'declined') = (decline_reason is not null)),
  check ((status in ('accepted', 'declined')) = (decided_at is not null))
);

-- At most one version in draft per request; at most one open (sent) version.
create unique index quotes_one_draft_key on public.quotes (request_id) where status = 'draft';
create unique index quotes_one_sent_key on public.quotes (request_id) where status = 'sent';
create index quotes_status_sent_idx on public.quotes (status, sent_at);

alter table public.quotes enable row level security;
create policy "quotes: read sent own or admin" on public.quotes
  for select to authenticated
  using ((select public.is_admin()) or (status <> 'draft' and exists (
    select 1 from public.quote_requests r where r.id = request_id and r.user_id = (select auth.uid()))));

revoke all on public.quotes from anon, authenticated;
grant all on public.quotes to service_role;
grant select on public.quotes to authenticated;

-- public.quote_lines --------------------------------------------------------------------------
-- A version's lines: a catalogue variant at a price that may differ from its list price, or a
-- custom line (a set-up fee, a consultant's day). Prices are VAT inclusive, as on invoices.
-- Written by save_quote_draft() only; frozen once the version is sent.
-- Triggers (they fire in name order within each timing):
--   quote_lines_frozen: before insert or update or delete, per row -> public.keep_sent_quotes_unchanged()
create table public.quote_lines (
  id uuid primary key default gen_random_uuid(),
  quote_id uuid not null references public.quotes (id) on delete cascade,
  position integer not null check (position >= 0),
  -- Null for a custom line, and once the product or variant is deleted (the line stays as sent).
  product_id uuid references public.products (id) on delete set null,
  variant_id uuid references public.product_variants (id) on delete set null,
  is_custom boolean not null,
  -- The line's name as quoted: the variant's ("Golf shirt — L / Navy") or the admin's words.
  description text not null check (char_length(btrim(description)) between 1 and 500),
  quantity integer not null check (quantity between 1 and 100000),
  unit_price numeric(12, 2) not null check (unit_price > 0),
  unique (quote_id, position),
  check (not is_custom or (product_id is null and variant_id is null))
);

create index quote_lines_variant_idx on public.quote_lines (variant_id) where variant_id is not null;
create index quote_lines_product_idx on public.quote_lines (product_id) where product_id is not null;

alter table public.quote_lines enable row level security;
create policy "quote_lines: read with the quote" on public.quote_lines
  for select to authenticated
  using (exists (
    select 1 from public.quotes q join public.quote_requests r on r.id = q.request_id
    where q.id = quote_id and ((select public.is_admin()) or (q.status <> 'draft' and r.user_id = (select auth.uid())))));

revoke all on public.quote_lines from anon, authenticated;
grant all on public.quote_lines to service_role;
grant select on public.quote_lines to authenticated;

-- A sent version is what the customer was offered: its lines, prices, total and dates never
-- change again, not even by the table's owner; only its status moves on (and the decision's
-- fields with it). Deleting goes only with the request (the account's deletion).
create function public.keep_sent_quotes_unchanged() returns trigger
language plpgsql security invoker set search_path = ''
as $$
declare
  v_status public.quote_status;
begin
  if tg_table_name = 'quote_lines' then
    -- A deleted product or variant leaves the line as it was quoted (its ids set null).
    if tg_op = 'UPDATE'
       and (new.quote_id, new.position, new.is_custom, new.description, new.quantity, new.unit_price)
           is not distinct from (old.quote_id, old.position, old.is_custom, old.description, old.quantity, old.unit_price)
       and (new.product_id is null or new.product_id = old.product_id)
       and (new.variant_id is null or new.variant_id = old.variant_id) then
      return new;
    end if;
    select q.status into v_status from public.quotes q
    where q.id = case when tg_op = 'INSERT' then new.quote_id else old.quote_id end;
    -- Null: the version itself is being deleted (with its request).
    if v_status is not null and v_status <> 'draft' then
      raise exception 'quote_frozen' using errcode = '42501';
    end if;
  elsif tg_op = 'UPDATE' and old.status <> 'draft'
        and (new.request_id, new.version, new.valid_until, new.terms, new.note, new.total, new.sent_at)
            is distinct from (old.request_id, old.version, old.valid_until, old.terms, old.note, old.total, old.sent_at) then
    raise exception 'quote_frozen' using errcode = '42501';
  elsif tg_op = 'DELETE' and old.status <> 'draft'
        and exists (select 1 from public.quote_requests r where r.id = old.request_id) then
    raise exception 'quote_frozen' using errcode = '42501';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;
revoke execute on function public.keep_sent_quotes_unchanged() from public, anon, authenticated;
grant execute on function public.keep_sent_quotes_unchanged() to service_role;
create trigger quotes_frozen
  before update or delete on public.quotes
  for each row execute function public.keep_sent_quotes_unchanged();
create trigger quote_lines_frozen
  before insert or update or delete on public.quote_lines
  for each row execute function public.keep_sent_quotes_unchanged();

-- public.quote_files --------------------------------------------------------------------------
-- Up to 5 files with a request (a logo, a floor plan), in the private personalisation bucket
-- under the customer's folder (060_storage.sql: the customer and admins read them), checked by
-- content when uploaded as logos are.
create table public.quote_files (
  id uuid primary key default gen_random_uuid(),
  request_id uuid not null references public.quote_requests (id) on delete cascade,
  path text not null unique check (char_length(path) <= 500),
  file_name text not null check (char_length(file_name) between 1 and 255),
  created_at timestamptz not null default now()
);

create index quote_files_request_idx on public.quote_files (request_id);

alter table public.quote_files enable row level security;
create policy "quote_files: read own or admin" on public.quote_files
  for select to authenticated
  using ((select public.is_admin()) or exists (
    select 1 from public.quote_requests r where r.id = request_id and r.user_id = (select auth.uid())));

revoke all on public.quote_files from anon, authenticated;
grant all on public.quote_files to service_role;
grant select on public.quote_files to authenticated;

-- public.quote_messages -----------------------------------------------------------------------
-- The conversation about a request: the customer's change requests (and decline reasons).
create table public.quote_messages (
  id uuid primary key default gen_random_uuid(),
  request_id uuid not null references public.quote_requests (id) on delete cascade,
  -- The version the message is about.
  quote_id uuid references public.quotes (id) on delete cascade,
  author_id uuid references public.profiles (id) on delete set null,
  from_customer boolean not null,
  kind text not null check (kind in ('change', 'decline')),
  body text not null check (char_length(btrim(body)) between 1 and 2000),
  created_at timestamptz not null default now()
);

create index quote_messages_request_idx on public.quote_messages (request_id, created_at);

alter table public.quote_messages enable row level security;
create policy "quote_messages: read own or admin" on public.quote_messages
  for select to authenticated
  using ((select public.is_admin()) or exists (
    select 1 from public.quote_requests r where r.id = request_id and r.user_id = (select auth.uid())));

revoke all on public.quote_messages from anon, authenticated;
grant all on public.quote_messages to service_role;
grant select on public.quote_messages to authenticated;

-- An accepted version's order: one per version (the unique key), placed by accept_quote().
alter table public.orders
  add constraint orders_quote_id_fkey foreign key (quote_id) references public.quotes (id) on delete set null;

-- Supabase Realtime: admins hear new requests and changes (RLS-filtered), customers their own.
alter publication supabase_realtime add table public.quote_requests;

-- Today in South Africa, the day a validity date is compared with.
create function private.quote_today() returns date
language sql stable set search_path = ''
as $$
  select (now() at time zone 'Africa/Johannesburg')::date
$$;
revoke execute on function private.quote_today() from public, anon, authenticated;

-- How a version reads to the customer and in the inbox: its status, or 'expired' for a sent
-- version past its validity date (South African time).
create function public.quote_state(p_status public.quote_status, p_valid_until date) returns text
language sql stable set search_path = ''
as $$
  select case when p_status = 'sent' and p_valid_until < (now() at time zone 'Africa/Johannesburg')::date
              then 'expired' else p_status::text end
$$;
revoke execute on function public.quote_state(public.quote_status, date) from public, anon;
grant execute on function public.quote_state(public.quote_status, date) to authenticated, service_role;

-- request_quote(): the caller's request, its items and files, in one transaction; the shop's
-- notice address gets a mail and admins the live notice (quote_requests_notify).
-- p_items: [{"variantId", "quantity"}] (at most 50; names are read here); p_files:
-- [{"path", "fileName"}] (at most 5), each stored under the caller's own folder of the
-- personalisation bucket (quotes.uploadFile) and named by no other request.
-- Security definer: customers have no INSERT on these tables, and the mail is the shop's.
create function public.request_quote(
  p_description text, p_items jsonb, p_preferred_date date, p_company text, p_vat_number text, p_files jsonb)
returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_name text;
  v_email text;
  v_items jsonb;
  v_file jsonb;
  v_id uuid;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if char_length(btrim(coalesce(p_description, ''))) not between 1 and 5000 then
    raise exception 'quote_description_invalid';
  end if;
  if jsonb_typeof(coalesce(p_items, '[]')) <> 'array' or jsonb_array_length(coalesce(p_items, '[]')) > 50
     or exists (select 1 from jsonb_array_elements(coalesce(p_items, '[]')) e
                where jsonb_typeof(e) <> 'object' or jsonb_typeof(e -> 'quantity') <> 'number'
                   or (e ->> 'quantity')::numeric not between 1 and 100000 or (e ->> 'quantity')::numeric % 1 <> 0
                   or coalesce(e ->> 'variantId', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$') then
    raise exception 'quote_items_invalid';
  end if;
  if p_preferred_date is not null and (p_preferred_date < private.quote_today() or p_preferred_date > private.quote_today() + 730) then
    raise exception 'quote_date_invalid';
  end if;
  if jsonb_typeof(coalesce(p_files, '[]')) <> 'array' or jsonb_array_length(coalesce(p_files, '[]')) > 5 then
    raise exception 'quote_files_invalid';
  end if;

  select coalesce(jsonb_agg(jsonb_build_object(
           'productId', p.id, 'variantId', v.id, 'name', public.variant_line_name(p.name, v.option_values),
           'quantity', (e.item ->> 'quantity')::integer) order by e.n), '[]'::jsonb)
    into v_items
    from jsonb_array_elements(coalesce(p_items, '[]')) with ordinality as e (item, n)
    join public.product_variants v on v.id = (e.item ->> 'variantId')::uuid
    join public.products p on p.id = v.product_id;
  if jsonb_array_length(v_items) <> jsonb_array_length(coalesce(p_items, '[]')) then
    raise exception 'product_unavailable';
  end if;

  select coalesce(nullif(btrim(pr.full_name), ''), pr.email), pr.email into v_name, v_email
  from public.profiles pr where pr.id = v_uid;
  if v_email is null then
    raise exception 'profile_missing';
  end if;

  insert into public.quote_requests (user_id, customer_name, customer_email, description, items, preferred_date, company_name, vat_number)
  values (v_uid, v_name, v_email, btrim(p_description), v_items, p_preferred_date,
          btrim(coalesce(p_company, '')), coalesce(p_vat_number, ''))
  returning id into v_id;

  for v_file in select f from jsonb_array_elements(coalesce(p_files, '[]')) f loop
    if jsonb_typeof(v_file) <> 'object'
       or (storage.foldername(v_file ->> 'path'))[1] is distinct from v_uid::text
       or char_length(coalesce(v_file ->> 'fileName', '')) not between 1 and 255
       or not exists (select 1 from storage.objects o where o.bucket_id = 'personalisation' and o.name = v_file ->> 'path')
       or exists (select 1 from public.quote_files q where q.path = v_file ->> 'path') then
      raise exception 'quote_files_invalid';
    end if;
    insert into public.quote_files (request_id, path, file_name) values (v_id, v_file ->> 'path', v_file ->> 'fileName');
  end loop;

  perform private.enqueue_mail(private.shop_notice_address(), 'quote_requested', jsonb_strip_nulls(jsonb_build_object(
    'requestId', v_id, 'customerName', v_name, 'customerEmail', v_email, 'description', btrim(p_description),
    'itemCount', jsonb_array_length(v_items), 'fileCount', jsonb_array_length(coalesce(p_files, '[]')),
    'preferredDate', p_preferred_date, 'company', nullif(btrim(coalesce(p_company, '')), ''))));
  return v_id;
end
$$;
revoke execute on function public.request_quote(text, jsonb, date, text, text, jsonb) from public, anon;
grant execute on function public.request_quote(text, jsonb, date, text, text, jsonb) to authenticated, service_role;

-- save_quote_draft(): an admin's draft of the request's next version, created or replaced whole
-- (lines, validity date, terms, note; the total summed here). p_lines: [{"variantId", "quantity",
-- "unitPrice"} for a catalogue line, {"description", "quantity", "unitPrice"} for a custom one],
-- 1 to 100 of them; a catalogue line's name is the variant's now. Refused once a version of the
-- request was accepted. Returns the draft's id.
create function public.save_quote_draft(p_request_id uuid, p_valid_until date, p_terms text, p_note text, p_lines jsonb)
returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quote public.quotes;
begin
  if not (select public.is_admin()) then
    raise exception 'admins_only' using errcode = '42501';
  end if;
  perform 1 from public.quote_requests r where r.id = p_request_id for update;
  if not found then
    raise exception 'quote_unknown';
  end if;
  if exists (select 1 from public.quotes q where q.request_id = p_request_id and q.status = 'accepted') then
    raise exception 'quote_closed';
  end if;
  if p_valid_until is null or p_valid_until < private.quote_today() then
    raise exception 'quote_validity_invalid';
  end if;
  if jsonb_typeof(coalesce(p_lines, 'null')) <> 'array' or jsonb_array_length(p_lines) not between 1 and 100
     or exists (select 1 from jsonb_array_elements(p_lines) e
                where jsonb_typeof(e) <> 'object'
                   or jsonb_typeof(e -> 'quantity') <> 'number' or (e ->> 'quantity')::numeric not between 1 and 100000
                   or (e ->> 'quantity')::numeric % 1 <> 0
                   or coalesce(e ->> 'unitPrice', '') !~ '^[0-9]{1,10}(\.[0-9]{1,2})?$' or (e ->> 'unitPrice')::numeric <= 0
                   or ((e ? 'variantId') = (e ? 'description'))
                   or (e ? 'variantId' and coalesce(e ->> 'variantId', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
                   or (e ? 'description' and char_length(btrim(coalesce(e ->> 'description', ''))) not between 1 and 500)) then
    raise exception 'quote_lines_invalid';
  end if;
  if exists (select 1 from jsonb_array_elements(p_lines) e
             where e ? 'variantId' and not exists (select 1 from public.product_variants v where v.id = (e ->> 'variantId')::uuid)) then
    raise exception 'product_unavailable';
  end if;

  select * into v_quote from public.quotes q where q.request_id = p_request_id and q.status = 'draft';
  if found then
    delete from public.quote_lines l where l.quote_id = v_quote.id;
    update public.quotes set valid_until = p_valid_until, terms = btrim(coalesce(p_terms, '')), note = btrim(coalesce(p_note, '')),
                             updated_at = now(), created_by = v_uid
    where id = v_quote.id
    returning * into v_quote;
  else
    insert into public.quotes (request_id, version, valid_until, terms, note, created_by)
    values (p_request_id, coalesce((select max(q.version) from public.quotes q where q.request_id = p_request_id), 0) + 1,
            p_valid_until, btrim(coalesce(p_terms, '')), btrim(coalesce(p_note, '')), v_uid)
    returning * into v_quote;
  end if;

  insert into public.quote_lines (quote_id, position, product_id, variant_id, is_custom, description, quantity, unit_price)
  select v_quote.id, (e.n - 1)::integer, p.id, v.id, not (e.line ? 'variantId'),
         case when e.line ? 'variantId' then public.variant_line_name(p.name, v.option_values) else btrim(e.line ->> 'description') end,
         (e.line ->> 'quantity')::integer, (e.line ->> 'unitPrice')::numeric(12, 2)
  from jsonb_array_elements(p_lines) with ordinality as e (line, n)
  left join public.product_variants v on e.line ? 'variantId' and v.id = (e.line ->> 'variantId')::uuid
  left join public.products p on p.id = v.product_id;

  update public.quotes q set total = (select sum(l.unit_price * l.quantity) from public.quote_lines l where l.quote_id = q.id)
  where q.id = v_quote.id;
  update public.quote_requests set updated_at = now() where id = p_request_id;
  return v_quote.id;
end
$$;
revoke execute on function public.save_quote_draft(uuid, date, text, text, jsonb) from public, anon;
grant execute on function public.save_quote_draft(uuid, date, text, text, jsonb) to authenticated, service_role;

-- send_quote(): an admin sends the request's draft. The first version sent takes the next
-- number; a revision keeps it and supersedes the version sent before it (which can then no
-- longer be accepted). From here on its lines and prices never change (quotes_frozen). The
-- customer gets a notice with the link to it (WhatsApp while they consent, e-mail otherwise).
create function public.send_quote(p_quote_id uuid)
returns public.quotes
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_quote public.quotes;
  v_request public.quote_requests;
  v_serial bigint;
begin
  if not (select public.is_admin()) then
    raise exception 'admins_only' using errcode = '42501';
  end if;
  select r.* into v_request from public.quote_requests r
  where r.id = (select q.request_id from public.quotes q where q.id = p_quote_id)
  for update;
  if not found then
    raise exception 'quote_unknown';
  end if;
  select * into v_quote from public.quotes q where q.id = p_quote_id for update;
  if v_quote.status <> 'draft' then
    raise exception 'quote_not_draft';
  end if;
  if exists (select 1 from public.quotes q where q.request_id = v_request.id and q.status = 'accepted') then
    raise exception 'quote_closed';
  end if;
  if v_quote.valid_until < private.quote_today() then
    raise exception 'quote_validity_invalid';
  end if;
  if not exists (select 1 from public.quote_lines l where l.quote_id = v_quote.id) then
    raise exception 'quote_lines_invalid';
  end if;

  if v_request.number is null then
    update public.quote_counters set last_number = last_number + 1 where id
      returning last_number into v_serial;
    -- Six digits at least (lpad alone would cut a seventh off).
    update public.quote_requests set serial = v_serial, number = 'Q-' || case when v_serial > 999999 then v_serial::text else lpad(v_serial::text, 6, '0') end
    where id = v_request.id
    returning * into v_request;
  end if;
  update public.quotes set status = 'superseded', updated_at = now()
  where request_id = v_request.id and status = 'sent';
  update public.quotes set status = 'sent', sent_at = now(), updated_at = now()
  where id = v_quote.id
  returning * into v_quote;
  update public.quote_requests set change_asked_at = null, updated_at = now() where id = v_request.id;

  perform private.enqueue_customer_notice(v_request.user_id, v_request.customer_email, 'quote_sent', jsonb_build_object(
    'requestId', v_request.id, 'customerName', v_request.customer_name, 'number', v_request.number,
    'version', v_quote.version, 'total', v_quote.total, 'validUntil', v_quote.valid_until));
  return v_quote;
end
$$;
revoke execute on function public.send_quote(uuid) from public, anon;
grant execute on function public.send_quote(uuid) to authenticated, service_role;

-- The caller's own sent version, locked: the start of every decision. Refused ('quote_unknown')
-- when it is not theirs or not sent to them, so another customer learns nothing.
create function private.own_sent_quote(p_uid uuid, p_quote_id uuid) returns public.quotes
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_quote public.quotes;
begin
  if p_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  -- The request first (every decision and send_quote lock it first, so they queue in one order).
  perform 1 from public.quote_requests r
  where r.user_id = p_uid and r.id = (select q.request_id from public.quotes q where q.id = p_quote_id)
  for update;
  if not found then
    raise exception 'quote_unknown';
  end if;
  select * into v_quote from public.quotes q where q.id = p_quote_id for update;
  if v_quote.status = 'draft' then
    raise exception 'quote_unknown';
  end if;
  return v_quote;
end
$$;
revoke execute on function private.own_sent_quote(uuid, uuid) from public, anon, authenticated;

-- Why a version cannot be decided on now: it was superseded, declined, accepted, or is past its
-- validity date (checked at this moment, in South African time).
create function private.refuse_closed_quote(p_quote public.quotes) returns void
language plpgsql stable set search_path = ''
as $$
begin
  if p_quote.status = 'superseded' then
    raise exception 'quote_superseded';
  elsif p_quote.status = 'declined' then
    raise exception 'quote_declined';
  elsif p_quote.status = 'accepted' then
    raise exception 'quote_accepted';
  elsif p_quote.valid_until < private.quote_today() then
    raise exception 'quote_expired';
  end if;
end
$$;
revoke execute on function private.refuse_closed_quote(public.quotes) from public, anon, authenticated;

-- decline_quote(): the customer declines their open version, saying why.
create function public.decline_quote(p_quote_id uuid, p_reason text)
returns public.quotes
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quote public.quotes;
begin
  v_quote := private.own_sent_quote(v_uid, p_quote_id);
  perform private.refuse_closed_quote(v_quote);
  if char_length(btrim(coalesce(p_reason, ''))) not between 1 and 1000 then
    raise exception 'quote_reason_required';
  end if;
  update public.quotes set status = 'declined', decline_reason = btrim(p_reason), decided_at = now(), updated_at = now()
  where id = v_quote.id
  returning * into v_quote;
  insert into public.quote_messages (request_id, quote_id, author_id, from_customer, kind, body)
  values (v_quote.request_id, v_quote.id, v_uid, true, 'decline', btrim(p_reason));
  update public.quote_requests set change_asked_at = null, updated_at = now() where id = v_quote.request_id;
  return v_quote;
end
$$;
revoke execute on function public.decline_quote(uuid, text) from public, anon;
grant execute on function public.decline_quote(uuid, text) to authenticated, service_role;

-- ask_quote_change(): the customer's message back about their open version; it stays open (and
-- can still be accepted) until the shop sends a revision. The shop gets a mail.
create function public.ask_quote_change(p_quote_id uuid, p_message text)
returns public.quote_messages
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quote public.quotes;
  v_request public.quote_requests;
  v_message public.quote_messages;
begin
  v_quote := private.own_sent_quote(v_uid, p_quote_id);
  perform private.refuse_closed_quote(v_quote);
  if char_length(btrim(coalesce(p_message, ''))) not between 1 and 2000 then
    raise exception 'quote_message_required';
  end if;
  insert into public.quote_messages (request_id, quote_id, author_id, from_customer, kind, body)
  values (v_quote.request_id, v_quote.id, v_uid, true, 'change', btrim(p_message))
  returning * into v_message;
  update public.quote_requests set change_asked_at = now(), updated_at = now() where id = v_quote.request_id
  returning * into v_request;
  perform private.enqueue_mail(private.shop_notice_address(), 'quote_change_asked', jsonb_build_object(
    'requestId', v_request.id, 'customerName', v_request.customer_name, 'customerEmail', v_request.customer_email,
    'number', v_request.number, 'version', v_quote.version, 'message', btrim(p_message)));
  return v_message;
end
$$;
revoke execute on function public.ask_quote_change(uuid, text) from public, anon;
grant execute on function public.ask_quote_change(uuid, text) to authenticated, service_role;

-- A version's lines as fulfilment reads them (lead times, daily limits: fulfilment_days_of(),
-- 090_fulfilment.sql): its catalogue lines' products and quantities, as a cart's lines.
create function private.quote_fulfilment_lines(p_quote_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('product_id', l.product_id, 'quantity', l.quantity) order by l.position), '[]'::jsonb)
  from public.quote_lines l where l.quote_id = p_quote_id and l.product_id is not null;
$$;
revoke execute on function private.quote_fulfilment_lines(uuid) from public, anon, authenticated;

-- Whether accepting a version asks delivery or collection: once fulfilment is set up (as
-- checkout), and only when a line is goods, a catalogue product not booked by time. A version of
-- services only (booked lines, custom lines such as a consultant's day) asks nothing.
create function private.quote_asks_fulfilment(p_quote_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select private.fulfilment_configured() and exists (
    select 1 from public.quote_lines l
    where l.quote_id = p_quote_id and l.product_id is not null
      and not exists (select 1 from public.bookable_services b where b.product_id = l.product_id));
$$;
revoke execute on function private.quote_asks_fulfilment(uuid) from public, anon, authenticated;

-- Whether the shop priced delivery in the version itself: a custom line whose description
-- starts with the word "Delivery". The area's fee is then not added again (the method, day and
-- address are still asked).
create function private.quote_prices_delivery(p_quote_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.quote_lines l
    where l.quote_id = p_quote_id and l.is_custom and l.description ~* '^\s*delivery\M');
$$;
revoke execute on function private.quote_prices_delivery(uuid) from public, anon, authenticated;

-- What accepting the caller's own sent version asks (the quote page, before accepting): whether
-- delivery or collection (asks), whether the version prices delivery itself (delivery_quoted:
-- the area's fee is not added), and the next 14 days its lines can have, as fulfilment_days()
-- offers a cart's. No row for anyone else's version. p_now moves only this read's clock:
-- accept_quote checks the day at its own now().
create function public.quote_fulfilment_offer(p_quote_id uuid, p_now timestamptz default now())
returns table (asks boolean, delivery_quoted boolean, days date[])
language sql stable security definer set search_path = ''
as $$
  select private.quote_asks_fulfilment(q.id), private.quote_prices_delivery(q.id),
         array(select d from private.fulfilment_days_of(private.quote_fulfilment_lines(q.id), p_now, true) as d order by d limit 14)
  from public.quotes q join public.quote_requests r on r.id = q.request_id
  where q.id = p_quote_id and q.status <> 'draft' and r.user_id = (select auth.uid());
$$;
revoke execute on function public.quote_fulfilment_offer(uuid, timestamptz) from public, anon;
grant execute on function public.quote_fulfilment_offer(uuid, timestamptz) to authenticated, service_role;

-- accept_quote(): the customer accepts their open version. One order at the quoted prices, and
-- only one: the version is locked (with its request) first, so a second tap, tab or retry waits
-- here and then gets the order the first one made (whatever it chose); orders.quote_id is unique
-- besides. Checked at this moment: the version is the customer's, sent, not superseded,
-- declined, or past its validity date, and no catalogue line's product or variant has been made
-- unavailable since. The order is placed as place_order places one (100_checkout.sql): a new
-- reference, the customer's name and e-mail, its lines (catalogue lines with their variant as
-- sold, custom lines without a product) at the quote's prices, counted stock taken while it
-- lasts; it is paid from its page (a proof, or Pay now). The purchase-order number, when given,
-- goes on the invoice.
-- p_fulfilment is place_order's choice (private.check_fulfilment(), for the version's lines and
-- total), asked only where private.quote_asks_fulfilment() says so: the area's fee is added as a
-- line and to the total unless the version prices delivery itself, and the day's capacity is
-- taken. p_slots = [{"lineId": uuid, "startsAt": timestamptz}]: a time for each line of a
-- bookable service (and no other), booked as place_order books a cart's (the locks of its hours,
-- then free at this moment with the service's notice; 'slot_taken' names the line otherwise),
-- one booking per line. Such lines ask their deposit now, as at checkout (booking_deposit()).
-- Any refusal changes nothing: the version stays open.
create function public.accept_quote(p_quote_id uuid, p_purchase_order text, p_fulfilment jsonb default null, p_slots jsonb default '[]'::jsonb)
returns public.orders
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quote public.quotes;
  v_order public.orders;
  v_name text;
  v_email text;
  v_po text := nullif(btrim(coalesce(p_purchase_order, '')), '');
  v_need record;
  v_slots jsonb := coalesce(p_slots, '[]'::jsonb);
  v_slot timestamptz;
  v_lines jsonb;
  v_method text;
  v_day date;
  v_area_id uuid;
  v_area_name text;
  v_address text;
  v_fee numeric(12, 2) := 0;
  v_deposit numeric(12, 2);
begin
  v_quote := private.own_sent_quote(v_uid, p_quote_id);
  if v_quote.status = 'accepted' then
    select * into v_order from public.orders o where o.quote_id = v_quote.id;
    if found then
      return v_order;
    end if;
  end if;
  perform private.refuse_closed_quote(v_quote);
  if char_length(v_po) > 60 then
    raise exception 'purchase_order_invalid';
  end if;
  -- What the shop no longer sells is not ordered, quoted or not (as place_order refuses it); a
  -- line whose product was deleted since is sold as quoted, as a line without a product.
  -- Locked as place_order locks them: the products shared; counted variants for the update that
  -- takes their stock, in variant order (acceptances of the same units queue, never crosswise);
  -- the others shared, so neither availability nor stock changes under us.
  perform 1 from public.products p
  where p.id in (select l.product_id from public.quote_lines l where l.quote_id = v_quote.id)
  for share;
  perform 1 from public.product_variants v
  where v.id in (select l.variant_id from public.quote_lines l where l.quote_id = v_quote.id) and v.stock is not null
  order by v.id
  for no key update;
  perform 1 from public.product_variants v
  where v.id in (select l.variant_id from public.quote_lines l where l.quote_id = v_quote.id) and v.stock is null
  for share;
  if exists (
    select 1 from public.quote_lines l
    join public.product_variants v on v.id = l.variant_id
    join public.products p on p.id = v.product_id
    where l.quote_id = v_quote.id and not (p.available and v.available)
  ) then
    raise exception 'product_unavailable';
  end if;

  -- The times: an array of objects, each naming a bookable line of this version once...
  if jsonb_typeof(v_slots) <> 'array' then
    raise exception 'quote_slots_invalid';
  end if;
  if exists (
    select 1 from jsonb_array_elements(v_slots) e
    where jsonb_typeof(e.value) <> 'object' or not exists (
      select 1 from public.quote_lines l join public.bookable_services b on b.product_id = l.product_id
      where l.quote_id = v_quote.id and l.id::text = lower(e.value ->> 'lineId'))
  ) or (select count(*) from jsonb_array_elements(v_slots)) <> (select count(distinct lower(e.value ->> 'lineId')) from jsonb_array_elements(v_slots) e) then
    raise exception 'quote_slots_invalid';
  end if;
  -- ...and every bookable line has one, a time.
  for v_need in
    select l.description as name, e.value ->> 'startsAt' as starts_at
    from public.quote_lines l
    join public.bookable_services b on b.product_id = l.product_id
    left join jsonb_array_elements(v_slots) e on lower(e.value ->> 'lineId') = l.id::text
    where l.quote_id = v_quote.id
    order by l.position
  loop
    begin
      v_slot := v_need.starts_at::timestamptz;
    exception when others then
      v_slot := null;
    end;
    if v_slot is null then
      raise exception 'slot_required' using detail = json_build_object('name', v_need.name)::text;
    end if;
  end loop;

  -- Delivery or collection, where the version has goods (and the shop has set it up).
  if private.quote_asks_fulfilment(v_quote.id) then
    v_lines := private.quote_fulfilment_lines(v_quote.id);
    select f.o_method, f.o_day, f.o_area_id, f.o_area_name, f.o_address, f.o_fee
    into v_method, v_day, v_area_id, v_area_name, v_address, v_fee
    from private.check_fulfilment(p_fulfilment, v_quote.total, v_lines) f;
    if private.quote_prices_delivery(v_quote.id) then
      v_fee := 0;
    end if;
  end if;

  -- What is due now, as at checkout: a booked line's deposit, every other line and the fee in
  -- full; a deposit that comes to the whole total is no deposit.
  select case when bool_or(a.deposit is not null) then sum(coalesce(a.deposit, a.amount)) end into v_deposit
  from (
    select l.unit_price * l.quantity as amount,
           case when b.product_id is not null then public.booking_deposit(l.product_id, l.unit_price * l.quantity) end as deposit
    from public.quote_lines l
    left join public.bookable_services b on b.product_id = l.product_id
    where l.quote_id = v_quote.id
  ) a;
  v_deposit := v_deposit + v_fee;
  if v_deposit >= v_quote.total + v_fee then
    v_deposit := null;
  end if;

  select coalesce(nullif(btrim(pr.full_name), ''), pr.email), pr.email into v_name, v_email
  from public.profiles pr where pr.id = v_uid;
  if v_email is null then
    raise exception 'profile_missing';
  end if;

  -- Nothing due now (bookings without a deposit, nothing else): Pending Delivery, as at checkout.
  insert into public.orders (reference, user_id, customer_name, customer_email, total, proof_path, idempotency_key, payment_method,
                             quote_id, purchase_order,
                             fulfilment_method, fulfilment_day, delivery_address, delivery_area_id, delivery_area_name, delivery_fee,
                             deposit, balance_reference, status)
  select r.reference, v_uid, v_name, v_email, v_quote.total + v_fee, null, v_quote.id, 'bank_transfer',
         v_quote.id, v_po,
         v_method, v_day, v_address, v_area_id, v_area_name, v_fee,
         v_deposit, case when v_deposit is not null then r.reference || '-B' end,
         case when v_deposit = 0 then 'pending_delivery' else 'pending_payment' end::public.order_status
  from (select public.new_order_reference() as reference) r
  returning * into v_order;

  -- Counted stock, per variant in variant order (as place_order takes it): never below zero.
  for v_need in
    select v.id, sum(l.quantity)::integer as quantity, v.stock, max(l.description) as name
    from public.quote_lines l join public.product_variants v on v.id = l.variant_id
    where l.quote_id = v_quote.id and v.stock is not null
    group by v.id, v.stock
    order by v.id
  loop
    update public.product_variants v set stock = v.stock - v_need.quantity
    where v.id = v_need.id and v.stock >= v_need.quantity;
    if not found then
      raise exception 'not_enough_stock'
        using detail = json_build_object('name', v_need.name, 'left', v_need.stock)::text;
    end if;
  end loop;

  insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path,
                                  variant_id, option_values, sku, stock_taken, slot_starts_at, slot_ends_at, deposit)
  select v_order.id, l.product_id, l.description, l.unit_price, l.quantity,
         case when v.id is not null then coalesce(v.image_path, p.image_path) end,
         v.id, coalesce(v.option_values, '{}'), v.sku, case when v.stock is not null then l.quantity else 0 end,
         (e.value ->> 'startsAt')::timestamptz, (e.value ->> 'startsAt')::timestamptz + make_interval(mins => b.duration_minutes),
         case when b.product_id is not null then public.booking_deposit(l.product_id, l.unit_price * l.quantity) end
  from public.quote_lines l
  left join public.product_variants v on v.id = l.variant_id
  left join public.products p on p.id = l.product_id
  left join public.bookable_services b on b.product_id = l.product_id
  left join jsonb_array_elements(v_slots) e on b.product_id is not null and lower(e.value ->> 'lineId') = l.id::text
  where l.quote_id = v_quote.id
  order by l.position;

  -- The times, booked as place_order books a cart's (the service's notice asked again).
  perform private.book_order_lines(v_order.id, v_uid, false);

  -- The fee is a line of its own, as at checkout (a free area, or delivery priced in the quote, adds none).
  if v_fee > 0 then
    insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path, is_delivery_fee)
    values (v_order.id, null, 'Delivery to ' || v_area_name, v_fee, 1, null, true);
  end if;
  if v_day is not null then
    perform private.take_day_capacity(v_order.id, v_day, v_lines);
  end if;
  if v_method = 'delivery' and (p_fulfilment ->> 'keepAddress') = 'true' then
    update public.profiles set delivery_address = v_address, delivery_area_id = v_area_id where id = v_uid;
  end if;

  update public.quotes set status = 'accepted', decided_at = now(), purchase_order = v_po, updated_at = now()
  where id = v_quote.id;
  update public.quote_requests set change_asked_at = null, updated_at = now() where id = v_quote.request_id;
  return v_order;
end
$$;
revoke execute on function public.accept_quote(uuid, text, jsonb, jsonb) from public, anon;
grant execute on function public.accept_quote(uuid, text, jsonb, jsonb) to authenticated, service_role;
