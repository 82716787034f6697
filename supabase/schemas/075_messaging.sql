-- Messaging channels and consent (issue 40; docs/architecture.md#messaging-channels-and-consent,
-- docs/whatsapp.md): a customer's consents to be messaged on WhatsApp, kept as rows (POPIA: the
-- time, where it was given, the words shown, and when and how it was withdrawn), never a boolean
-- overwritten; the outbox (070_mail.sql) writes a customer's order notice for WhatsApp only while
-- such a consent is live, and the worker checks it again when it sends.

-- public.messaging_consents -------------------------------------------------------------------
-- 'whatsapp_updates': order updates on WhatsApp; 'offers': offers, kept apart and unused for now.
-- At most one live (unwithdrawn) consent per customer and kind. A customer reads their own;
-- admins read all; nobody writes them but the functions below. Deleting the account deletes them.
create table public.messaging_consents (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null check (kind in ('whatsapp_updates', 'offers')),
  -- E.164 (+27821234567), checked by the server with libphonenumber-js before it gets here.
  phone text not null check (phone ~ '^\+[1-9][0-9]{6,14}$'),
  source text not null check (source in ('profile', 'signup', 'checkout')),
  words text not null check (char_length(btrim(words)) between 1 and 1000),
  given_at timestamptz not null default now(),
  withdrawn_at timestamptz,
  withdrawn_via text check (withdrawn_via in ('profile', 'stop')),
  check ((withdrawn_at is null) = (withdrawn_via is null))
);

create unique index messaging_consents_live_idx on public.messaging_consents (user_id, kind) where withdrawn_at is null;
create index messaging_consents_phone_idx on public.messaging_consents (phone) where withdrawn_at is null;

alter table public.messaging_consents enable row level security;
create policy "messaging_consents: read own, admins all" on public.messaging_consents
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));

revoke all on public.messaging_consents from anon, authenticated;
grant select on public.messaging_consents to authenticated;
grant all on public.messaging_consents to service_role;

-- The caller gives a consent (a new row; a live one of the same kind is withdrawn first, so the
-- record shows each number and wording the customer agreed to).
create function public.give_messaging_consent(p_kind text, p_phone text, p_source text, p_words text)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_id uuid;
begin
  if v_user is null then
    raise exception 'not signed in' using errcode = '42501';
  end if;
  update public.messaging_consents set withdrawn_at = now(), withdrawn_via = 'profile'
    where user_id = v_user and kind = p_kind and withdrawn_at is null;
  insert into public.messaging_consents (user_id, kind, phone, source, words)
    values (v_user, p_kind, p_phone, p_source, p_words) returning id into v_id;
  return v_id;
end
$$;
revoke execute on function public.give_messaging_consent(text, text, text, text) from public, anon;
grant execute on function public.give_messaging_consent(text, text, text, text) to authenticated, service_role;

-- The caller withdraws a consent (one tap on the profile). True when there was one to withdraw.
create function public.withdraw_messaging_consent(p_kind text)
returns boolean
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  update public.messaging_consents set withdrawn_at = now(), withdrawn_via = 'profile'
    where user_id = auth.uid() and kind = p_kind and withdrawn_at is null;
  get diagnostics v_count = row_count;
  return v_count > 0;
end
$$;
revoke execute on function public.withdraw_messaging_consent(text) from public, anon;
grant execute on function public.withdraw_messaging_consent(text) to authenticated, service_role;

-- The number a customer's order updates may go to on WhatsApp now, or null: the one place the
-- channel is chosen from (enqueue_customer_notice() below, and the worker before each send).
create function private.whatsapp_number(p_user_id uuid)
returns text
language sql stable security definer set search_path = ''
as $$
  select c.phone from public.messaging_consents c
    where c.user_id = p_user_id and c.kind = 'whatsapp_updates' and c.withdrawn_at is null
    order by c.given_at desc limit 1;
$$;
revoke execute on function private.whatsapp_number(uuid) from public, anon, authenticated;

-- A customer's order notice: on WhatsApp while they consent to it, by e-mail otherwise. The
-- e-mail address is kept on the row either way: a WhatsApp message that fails for good falls
-- back to it, once.
create function private.enqueue_customer_notice(p_user_id uuid, p_recipient text, p_template text, p_data jsonb)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  if p_user_id is null or private.whatsapp_number(p_user_id) is null or p_recipient is null or btrim(p_recipient) = '' then
    perform private.enqueue_mail(p_recipient, p_template, p_data);
    return;
  end if;
  insert into public.mail_outbox (recipient, template, data, channel, user_id)
    values (btrim(p_recipient), p_template, p_data, 'whatsapp', p_user_id) returning id into v_id;
  perform pg_notify('mail_outbox', v_id::text);
end
$$;
revoke execute on function private.enqueue_customer_notice(uuid, text, text, jsonb) from public, anon, authenticated;

-- public.whatsapp_settings --------------------------------------------------------------------
-- WhatsApp's settings in Shop settings (docs/whatsapp.md): whether it is on, the sending number's
-- id, the access token, the app secret and the webhook's verify token, and the owner's own alerts
-- (their mobile number and the switch). Admins only; the server reads them as the service role,
-- and the token and secrets never go back to a browser. While no row is saved the server uses
-- the WHATSAPP_* environment variables instead (src/server/messaging/whatsapp-settings.ts).
-- Triggers (they fire in name order within each timing):
--   whatsapp_settings_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change() (020_catalogue.sql)
--   whatsapp_settings_stamp: before insert or update, per row -> public.stamp_shop_settings() (030_settings.sql)
create table public.whatsapp_settings (
  id boolean primary key default true check (id),
  enabled boolean not null default false,
  phone_number_id text not null default '' check (phone_number_id ~ '^([0-9]{1,30})?$'),
  access_token text not null default '' check (char_length(access_token) <= 1000 and access_token !~ '\s'),
  app_secret text not null default '' check (char_length(app_secret) <= 200 and app_secret !~ '\s'),
  verify_token text not null default '' check (verify_token = '' or (char_length(verify_token) between 16 and 200 and verify_token !~ '\s')),
  -- E.164 (+27821234567), checked by the server with libphonenumber-js before it gets here.
  owner_phone text not null default '' check (owner_phone = '' or owner_phone ~ '^\+[1-9][0-9]{6,14}$'),
  owner_alerts boolean not null default false,
  updated_at timestamptz not null default now()
);

alter table public.whatsapp_settings enable row level security;
create policy "whatsapp_settings: admin read" on public.whatsapp_settings
  for select to authenticated using ((select public.is_admin()));
create policy "whatsapp_settings: admin insert" on public.whatsapp_settings
  for insert to authenticated with check ((select public.is_admin()));
create policy "whatsapp_settings: admin update" on public.whatsapp_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

revoke all on public.whatsapp_settings from anon, authenticated;
grant all on public.whatsapp_settings to service_role;
grant select on public.whatsapp_settings to authenticated;
grant insert (enabled, phone_number_id, access_token, app_secret, verify_token, owner_phone, owner_alerts),
      update (enabled, phone_number_id, access_token, app_secret, verify_token, owner_phone, owner_alerts) on public.whatsapp_settings to authenticated;

create trigger whatsapp_settings_stamp
  before insert or update on public.whatsapp_settings
  for each row execute function public.stamp_shop_settings();
-- Every process keeps the settings (the worker, the webhook, the consent choices on the pages):
-- each drops them when they change.
create trigger whatsapp_settings_catalogue_changes
  after insert or update or delete or truncate on public.whatsapp_settings
  for each statement execute function public.notify_catalogue_change();

-- The owner's number for their new-order and new-booking alerts, or null: WhatsApp switched on
-- with all four of its settings saved, the alerts switched on and a number saved. The one place
-- that is decided (enqueue_owner_alert() below, and the worker before each send).
create function private.whatsapp_owner_number()
returns text
language sql stable security definer set search_path = ''
as $$
  select s.owner_phone from public.whatsapp_settings s
    where s.id and s.enabled and s.owner_alerts and s.owner_phone <> ''
      and s.phone_number_id <> '' and s.access_token <> '' and s.app_secret <> '' and s.verify_token <> '';
$$;
revoke execute on function private.whatsapp_owner_number() from public, anon, authenticated;

-- An alert to the owner's own WhatsApp ('new_order_alert', 'new_booking_alert'), written in the
-- transaction of its event beside the shop's own mail, only while the owner asks for them. The
-- row's recipient is the shop's notice address: a message that fails for good is mailed there
-- once (fall_back_to_mail()). The number is the settings', read again when it is sent.
create function private.enqueue_owner_alert(p_template text, p_data jsonb)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_phone text := private.whatsapp_owner_number();
  v_id uuid;
begin
  if v_phone is null then
    return;
  end if;
  insert into public.mail_outbox (recipient, template, data, channel)
    values (coalesce(nullif(btrim(private.shop_notice_address()), ''), v_phone), p_template, p_data, 'whatsapp')
    returning id into v_id;
  perform pg_notify('mail_outbox', v_id::text);
end
$$;
revoke execute on function private.enqueue_owner_alert(text, jsonb) from public, anon, authenticated;

-- The worker's check before it sends an owner's alert (src/server/messaging/deliver-whatsapp.ts).
create function public.whatsapp_owner_alert_number()
returns text
language sql stable security definer set search_path = ''
as $$
  select private.whatsapp_owner_number();
$$;
revoke execute on function public.whatsapp_owner_alert_number() from public, anon, authenticated;
grant execute on function public.whatsapp_owner_alert_number() to service_role;

-- Inbound "STOP" on WhatsApp (the webhook, src/server/messaging/webhook.ts): every live WhatsApp
-- consent for that number is withdrawn at once, and one confirmation is written to the outbox
-- (a reply, not a notice). A second STOP finds nothing live and is not confirmed again.
create function public.whatsapp_stop(p_phone text)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_user uuid;
  v_count integer;
  v_id uuid;
begin
  with withdrawn as (
    update public.messaging_consents set withdrawn_at = now(), withdrawn_via = 'stop'
      where phone = p_phone and kind = 'whatsapp_updates' and withdrawn_at is null
      returning user_id
  )
  select count(*), min(user_id::text)::uuid into v_count, v_user from withdrawn;
  if v_count > 0 then
    insert into public.mail_outbox (recipient, template, data, channel, user_id)
      values (p_phone, 'whatsapp_stopped', '{}'::jsonb, 'whatsapp', v_user) returning id into v_id;
    perform pg_notify('mail_outbox', v_id::text);
  end if;
  return v_count;
end
$$;
revoke execute on function public.whatsapp_stop(text) from public, anon, authenticated;
grant execute on function public.whatsapp_stop(text) to service_role;

-- private.whatsapp_inbound_seen -----------------------------------------------------------------
-- The ids of inbound WhatsApp messages already taken: Meta sends a webhook again until it gets a
-- 200, so the same message may arrive twice; it becomes one contact message.
create table private.whatsapp_inbound_seen (
  message_id text primary key check (char_length(message_id) <= 200),
  received_at timestamptz not null default now()
);
-- Only whatsapp_inbound() writes it; nobody reads it through the API.
alter table private.whatsapp_inbound_seen enable row level security;
revoke all on private.whatsapp_inbound_seen from public, anon, authenticated;

-- Any other inbound WhatsApp message: shown to admins as a contact message from the customer
-- (their name and e-mail when the number is a customer's, else the number and WhatsApp's name).
-- Null when that message was taken before.
create function public.whatsapp_inbound(p_message_id text, p_phone text, p_name text, p_text text)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_profile record;
  v_id uuid;
begin
  insert into private.whatsapp_inbound_seen (message_id) values (p_message_id) on conflict do nothing;
  if not found then
    return null;
  end if;
  select p.id, p.email, p.full_name into v_profile
    from public.messaging_consents c join public.profiles p on p.id = c.user_id
    where c.phone = p_phone order by c.withdrawn_at is null desc, c.given_at desc limit 1;
  insert into public.contact_messages (name, email, phone, message, user_id)
    values (
      left(coalesce(nullif(btrim(v_profile.full_name), ''), nullif(btrim(p_name), ''), p_phone), 100),
      coalesce(v_profile.email, 'whatsapp:' || p_phone),
      p_phone,
      left('(WhatsApp) ' || p_text, 5000),
      v_profile.id)
    returning id into v_id;
  return v_id;
end
$$;
revoke execute on function public.whatsapp_inbound(text, text, text, text) from public, anon, authenticated;
grant execute on function public.whatsapp_inbound(text, text, text, text) to service_role;

-- A delivery status from WhatsApp (sent, delivered, read, failed) for the outbox row whose message
-- it was. Statuses arrive out of order and more than once: a row's status only moves forward
-- (sent < delivered < read; failed is final), so a late "sent" never hides a "read". A failure
-- reported after the send falls back to e-mail, once. Returns the row's status now (null: no such message).
create function public.record_whatsapp_status(p_message_id text, p_outbox_id uuid, p_status text, p_at timestamptz, p_error text default null)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_row public.mail_outbox;
  v_rank constant jsonb := '{"sent": 1, "delivered": 2, "read": 3, "failed": 4}';
begin
  if not (v_rank ? p_status) then
    raise exception 'unknown status %', p_status using errcode = '22023';
  end if;
  -- By WhatsApp's id, or by the outbox row's own (biz_opaque_callback_data): a status may arrive
  -- before the worker has written down the id WhatsApp answered with.
  select * into v_row from public.mail_outbox
    where channel = 'whatsapp' and (provider_message_id = p_message_id or (p_outbox_id is not null and id = p_outbox_id and provider_message_id is null))
    order by (provider_message_id = p_message_id) is true desc limit 1
    for update;
  if not found then
    return null;
  end if;
  if v_row.delivery_status is null or (v_rank ->> p_status)::int > (v_rank ->> v_row.delivery_status)::int then
    update public.mail_outbox set delivery_status = p_status, delivery_status_at = p_at,
      provider_message_id = coalesce(provider_message_id, p_message_id),
      last_error = case when p_status = 'failed' then left(coalesce(p_error, 'WhatsApp could not deliver it'), 2000) else last_error end
      where id = v_row.id;
    if p_status = 'failed' then
      perform private.fall_back_to_mail(v_row.id);
    end if;
    return p_status;
  end if;
  if v_row.provider_message_id is null then
    update public.mail_outbox set provider_message_id = p_message_id where id = v_row.id;
  end if;
  return v_row.delivery_status;
end
$$;
revoke execute on function public.record_whatsapp_status(text, uuid, text, timestamptz, text) from public, anon, authenticated;
grant execute on function public.record_whatsapp_status(text, uuid, text, timestamptz, text) to service_role;

-- A WhatsApp notice that failed for good goes by e-mail instead, once (unique fallback_of).
create function private.fall_back_to_mail(p_id uuid)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  insert into public.mail_outbox (recipient, template, data, channel, user_id, fallback_of)
    select m.recipient, m.template, m.data, 'email', m.user_id, m.id from public.mail_outbox m
      where m.id = p_id and m.channel = 'whatsapp' and m.template <> 'whatsapp_stopped' and m.recipient like '%@%'
    on conflict (fallback_of) do nothing
    returning id into v_id;
  if v_id is not null then
    perform pg_notify('mail_outbox', v_id::text);
  end if;
end
$$;
revoke execute on function private.fall_back_to_mail(uuid) from public, anon, authenticated;

-- The worker's fallback (src/server/mail/outbox.ts): a WhatsApp row given up on.
create function public.whatsapp_fall_back(p_id uuid)
returns void
language sql security definer set search_path = ''
as $$
  select private.fall_back_to_mail(p_id);
$$;
revoke execute on function public.whatsapp_fall_back(uuid) from public, anon, authenticated;
grant execute on function public.whatsapp_fall_back(uuid) to service_role;
