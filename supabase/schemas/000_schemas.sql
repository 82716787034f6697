-- private: what the API roles reach only through functions. Supabase's Data API exposes the
-- schemas listed in config.toml ([api] schemas: public, graphql_public), never this one; the API
-- roles get USAGE so that the functions granted to them below can be called inside the caller's
-- own transaction (no privileged handle in a request), and no privilege on any table here.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;
