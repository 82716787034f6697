-- Rate limits (src/server/security/): failed sign-ins, sign-ups, contact messages and checkouts
-- are counted in the database, so a limit holds across server processes and restarts.

-- private.rate_limit_hits ---------------------------------------------------------------------
-- Rate limits live in the database, so a limit holds across server processes and restarts. The
-- API roles reach them only through the functions below, which the server calls inside the
-- caller's own transaction.
create table private.rate_limit_hits (
  key text not null check (char_length(key) <= 300),
  at timestamptz not null default now()
);

create index rate_limit_hits_key_at_idx on private.rate_limit_hits (key, at);

alter table private.rate_limit_hits enable row level security;

revoke all on private.rate_limit_hits from public, anon, authenticated;

-- Milliseconds until `p_key` may act again (0: it may now). With p_hit, an allowed action is
-- counted. A transaction-level advisory lock on the key makes check-and-count atomic, so two
-- processes cannot both take the last allowed attempt.
create function private.rate_limit_take(p_key text, p_limit integer, p_window_ms integer, p_hit boolean)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_window interval := make_interval(secs => p_window_ms / 1000.0);
  v_count integer;
  v_oldest timestamptz;
begin
  if p_key is null or p_limit < 1 or p_window_ms < 1 then
    raise exception 'invalid rate limit' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('rate_limit:' || p_key, 0));
  delete from private.rate_limit_hits where key = p_key and at <= now() - v_window;
  select count(*), min(at) into v_count, v_oldest
    from (select at from private.rate_limit_hits where key = p_key order by at desc limit p_limit) recent;
  if v_count >= p_limit then
    return greatest(1, ceil(extract(epoch from (v_oldest + v_window - now())) * 1000))::integer;
  end if;
  if p_hit then
    insert into private.rate_limit_hits (key) values (p_key);
  end if;
  -- Now and then, forget what every other key left behind (a day is longer than any window).
  if random() < 0.001 then
    delete from private.rate_limit_hits where at < now() - interval '1 day';
  end if;
  return 0;
end
$$;
revoke execute on function private.rate_limit_take(text, integer, integer, boolean) from public;
grant execute on function private.rate_limit_take(text, integer, integer, boolean) to anon, authenticated, service_role;

-- Forgets a key's attempts (a successful sign-in clears its e-mail's failures).
create function private.rate_limit_reset(p_key text)
returns void
language sql security definer set search_path = ''
as $$
  delete from private.rate_limit_hits where key = p_key;
$$;
revoke execute on function private.rate_limit_reset(text) from public;
grant execute on function private.rate_limit_reset(text) to anon, authenticated, service_role;
