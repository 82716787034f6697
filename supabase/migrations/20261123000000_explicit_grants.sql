-- Explicit privileges for the API roles on everything in public.
--
-- Why this file exists: the earlier migrations relied on Supabase's default privileges, which
-- give anon, authenticated and service_role ALL on every new table, sequence and function in
-- public. A project can switch those off ("Default privileges for new entities" in the
-- dashboard, `[api].auto_expose_new_tables = false` in config.toml; Supabase makes that the
-- default for new projects and then for existing ones). Without them the tables exist but the
-- API roles may not touch them, whatever the policies say, and the shop fails from the
-- catalogue to checkout. So the grants are written out here.
--
-- Grants only make the policies reachable: row-level security still decides which rows each
-- caller sees and changes. Each role gets the commands its policies allow and the app uses
-- (tests/db/explicit-grants.test.ts checks the grants against pg_policies), and no more: no
-- TRUNCATE, REFERENCES or TRIGGER for the API roles. Where defaults are still on, everything
-- here was already granted; GRANT is additive and idempotent, so the file runs unchanged on
-- Supabase, a plain PostgreSQL server and PGlite. It revokes nothing, since a revoke would
-- change a running project's access, not just describe it.
--
-- A later migration that creates a table, sequence or function must grant it in the same file.
--
-- Not covered: storage.objects and storage.buckets (Supabase's storage schema grants ALL on
-- them to the API roles itself, and the compatibility schema does the same explicitly), and
-- auth.uid()/auth.jwt()/auth.role()/auth.email(), likewise granted by the platform.

-- service_role: everything. It bypasses RLS but not privileges; server tasks with the service
-- key (and Supabase's own tooling) expect the whole schema.
grant all on all tables in schema public to service_role;
grant all on all sequences in schema public to service_role;
grant execute on all functions in schema public to service_role;

-- Catalogue: everyone reads; admins write (the policies check is_admin()).
grant select on public.categories, public.products to anon, authenticated;
grant insert, update, delete on public.categories, public.products to authenticated;

-- Profiles: a user reads their own (admins everyone's) and edits two columns. Rows come from
-- the sign-up trigger and go with the auth user, so no INSERT or DELETE. UPDATE stays per
-- column (core schema): a table-wide UPDATE would let a customer make themselves admin.
grant select on public.profiles to authenticated;
grant update (full_name, avatar_path) on public.profiles to authenticated;

-- Cart: the owner reads, adds, changes the quantity and removes. add_to_cart() is security
-- invoker, so its INSERT ... ON CONFLICT DO UPDATE ... RETURNING needs these too.
grant select, insert, delete on public.cart_items to authenticated;
grant update (quantity) on public.cart_items to authenticated;

-- Orders: created only by place_order() (security definer), never deleted through the API;
-- the owner and admins read them, admins set the status. The storage policy on payments reads
-- orders.proof_path as the caller, which the SELECT here covers.
grant select on public.orders, public.order_items, public.order_status_events to authenticated;
grant update (status) on public.orders to authenticated;

-- Contact form: anyone sends; admins read, mark as read and delete.
grant insert on public.contact_messages to anon, authenticated;
grant select, delete on public.contact_messages to authenticated;
grant update (read_at) on public.contact_messages to authenticated;

-- Sequences: the only one backs order_status_events.id, written by a security definer trigger
-- alone, so the API roles need none (service_role has all, above).

-- Functions the app and the policies call as a signed-in user (already granted by name where
-- they were created; repeated so this file lists every grant the app depends on). The
-- security definer ones are allowlisted in tests/db/schema-lint.test.ts. Trigger functions get
-- nothing: a trigger runs without an EXECUTE check.
grant execute on function public.is_admin() to authenticated;
grant execute on function public.add_to_cart(uuid) to authenticated;
grant execute on function public.place_order(uuid, text, text) to authenticated;
grant execute on function public.new_order_reference() to authenticated;
