-- Supabase's platform privileges on a plain PostgreSQL database (docs/architecture.md#supabase-is-not-a-superuser), applied by
-- supabase_admin (the cluster's superuser, scripts/supabase-postgres.sh) to a fresh database
-- after src/server/db/supabase-compat.sql has created the platform's objects. It moves them to
-- the owners they have in Supabase's image and grants `postgres`, which then applies the
-- migrations, what it has there and no more:
--   - `auth` belongs to supabase_auth_admin and `storage` to supabase_storage_admin; postgres may
--     read and write their tables, reference auth.users and put triggers on it;
--   - postgres may create policies on storage.objects (supautils' policy_grants; here through
--     membership in supabase_storage_admin) and nothing else in those schemas (supautils guards
--     them; here an event trigger refuses any other DDL there);
--   - a custom parameter in a function's SET clause, or ALTER ROLE/DATABASE ... SET, needs a right
--     postgres lacks: PostgreSQL itself refuses it for a non-superuser, as on Supabase.

alter schema auth owner to supabase_auth_admin;
alter table auth.users owner to supabase_auth_admin;
alter table auth.identities owner to supabase_auth_admin;
alter table auth.sessions owner to supabase_auth_admin;
alter function auth.uid() owner to supabase_auth_admin;
alter function auth.role() owner to supabase_auth_admin;
alter function auth.email() owner to supabase_auth_admin;
alter function auth.jwt() owner to supabase_auth_admin;
alter function auth.notify_session_change() owner to supabase_auth_admin;

alter schema storage owner to supabase_storage_admin;
alter table storage.buckets owner to supabase_storage_admin;
alter table storage.objects owner to supabase_storage_admin;
alter function storage.foldername(text) owner to supabase_storage_admin;
alter function storage.filename(text) owner to supabase_storage_admin;
alter function storage.extension(text) owner to supabase_storage_admin;

alter publication supabase_realtime owner to postgres;

grant usage on schema auth, storage to postgres;
grant all on all tables in schema auth to postgres;
grant all on all tables in schema storage to postgres;
grant execute on all functions in schema auth, storage to postgres;
grant supabase_storage_admin to postgres;

-- What Supabase sets for objects postgres creates in public.
alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;

-- supautils' guard of the platform schemas, as an event trigger: the platform's own admins and
-- superusers may change them; anyone else only policies and triggers.
create schema platform_guard;
revoke all on schema platform_guard from public;

create function platform_guard.refuse_platform_ddl() returns event_trigger
language plpgsql
as $$
declare
  command record;
begin
  if current_user in ('supabase_admin', 'supabase_auth_admin', 'supabase_storage_admin') then
    return;
  end if;
  if tg_event = 'sql_drop' then
    for command in select * from pg_event_trigger_dropped_objects() loop
      if command.schema_name in ('auth', 'storage', 'realtime') and command.object_type not in ('policy', 'trigger') then
        raise exception 'permission denied: % % is part of the Supabase platform (supautils)', command.object_type, command.object_identity
          using errcode = '42501';
      end if;
    end loop;
    return;
  end if;
  for command in select * from pg_event_trigger_ddl_commands() loop
    if command.schema_name in ('auth', 'storage', 'realtime')
       and command.command_tag not in ('CREATE POLICY', 'ALTER POLICY', 'CREATE TRIGGER', 'COMMENT', 'GRANT', 'REVOKE') then
      raise exception 'permission denied: % on % (the Supabase platform''s schemas take only policies and triggers)', command.command_tag, command.object_identity
        using errcode = '42501';
    end if;
  end loop;
end
$$;

create event trigger refuse_platform_ddl on ddl_command_end execute function platform_guard.refuse_platform_ddl();
create event trigger refuse_platform_drop on sql_drop execute function platform_guard.refuse_platform_ddl();
