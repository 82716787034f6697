-- The declarative schema: the current definition of everything supabase/migrations/ creates, one
-- file per domain (src/server/<domain>/), applied in file-name order, which is dependency order.
-- Migrations stay what deploys; these files are what to read, and what `supabase db diff`
-- compares against (config.toml [db.migrations] schema_paths). tests/db/declarative-schema.test.ts
-- holds a database built from these files equal to one built from the migrations.
-- How to make a change: docs/schema-changes.md.
--
-- Not here: Supabase's own auth, storage and realtime schemas (locally
-- src/server/db/supabase-compat.sql stands in for them); only what the shop adds to them
-- (triggers on auth.users, policies on storage.objects, bucket rows, publication entries).
--
-- Grants: every table and function starts with what Supabase's default privileges give new
-- objects in public (ALL on tables and sequences, EXECUTE on functions, for anon, authenticated
-- and service_role; EXECUTE for PUBLIC on every new function), as the migrations do; each file
-- narrows that per object, next to it. Nothing in private is granted by default.

-- private: what the API roles reach only through functions. Supabase's Data API exposes the
-- schemas listed in config.toml ([api] schemas: public, graphql_public), never this one; the API
-- roles get USAGE so that the functions granted to them below can be called inside the caller's
-- own transaction (no privileged handle in a request), and no privilege on any table here.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;
