#!/usr/bin/env bash
# A PostgreSQL cluster privileged the way Supabase's image is (docs/architecture.md#supabase-is-not-a-superuser), for the tests
# that apply the migrations as Supabase applies them: the bootstrap superuser is supabase_admin,
# and `postgres`, which runs the migrations, is not a superuser. The platform roles are created
# here (they are cluster-wide); each test database gets the platform schemas from
# tests/supabase-platform/platform.sql (tests/helpers/supabase-platform.ts).
#
# Debian's postgresql package; run as root. Idempotent. Prints the line to evaluate:
#   export SUPABASE_ADMIN_URL=postgres://supabase_admin:postgres@127.0.0.1:54329/postgres
# Usage: eval "$(scripts/supabase-postgres.sh)"   (npm run test:supabase-db and test:e2e:supabase do)
set -euo pipefail
port="${SUPABASE_PG_PORT:-54329}"
version=$(ls /usr/lib/postgresql | sort -n | tail -1)

if ! pg_lsclusters -h | awk '{print $2}' | grep -qx supabase; then
  pwfile=$(mktemp)
  echo postgres >"$pwfile"
  chown postgres "$pwfile"
  pg_createcluster "$version" supabase -p "$port" -- \
    --username=supabase_admin --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >&2
  rm -f "$pwfile"
fi
pg_ctlcluster "$version" supabase start 2>/dev/null || true
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 1; done

# The image's roles (supabase/postgres init scripts): postgres may create roles and databases and
# bypasses RLS but is no superuser; the services' admins own their schemas.
psql -q -h /var/run/postgresql -p "$port" -U supabase_admin -d postgres -v ON_ERROR_STOP=1 >&2 <<'SQL'
do $$
declare
  r text;
begin
  if not exists (select 1 from pg_roles where rolname = 'postgres') then
    create role postgres login createrole createdb replication bypassrls password 'postgres';
  end if;
  foreach r in array array['anon', 'authenticated', 'service_role'] loop
    if not exists (select 1 from pg_roles where rolname = r) then
      execute format('create role %I nologin', r);
    end if;
  end loop;
  alter role service_role bypassrls;
  foreach r in array array['supabase_auth_admin', 'supabase_storage_admin', 'authenticator'] loop
    if not exists (select 1 from pg_roles where rolname = r) then
      execute format('create role %I login noinherit password %L', r, 'postgres');
    end if;
  end loop;
end
$$;
grant anon, authenticated, service_role to postgres, authenticator, supabase_storage_admin;
SQL
echo "export SUPABASE_ADMIN_URL=postgres://supabase_admin:postgres@127.0.0.1:$port/postgres"
