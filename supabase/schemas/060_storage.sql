-- Files (src/server/storage/): the buckets and who may do what in them. products-services
-- (public, product images), payments (private, proofs of payment under {uid}/...), avatars
-- (public, profile pictures under {uid}/...). Public buckets have no SELECT policy for everyone:
-- their public URLs need none, and one would let anyone list them (Supabase's advisor, lint
-- public_bucket_allows_listing); the writers keep reading what they may change.

-- Buckets are rows here, not only in config.toml, because SQL is the one place that works in
-- every run mode (config.toml lists the same values for the CLI, and tests/api/supabase-config.test.ts
-- holds the two equal). Proofs of payment may be PDF: South African banking apps save them that
-- way (checked by content on the server, src/server/storage/pdf-check.ts).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('products-services', 'products-services', true, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('payments', 'payments', false, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf']),
  ('avatars', 'avatars', true, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/gif'])
on conflict (id) do nothing;

-- personalisation: the files customers add to their lines (a logo to embroider), at
-- {uid}/{timestamp}_{filename}; private to the customer and admins; PNG, JPEG, WebP or PDF up to
-- 10 MB, checked by content (src/server/storage/read-upload.ts), never SVG.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('personalisation', 'personalisation', false, 10485760, array['image/jpeg', 'image/png', 'image/webp', 'application/pdf'])
on conflict (id) do nothing;

create policy "products-services: admin insert" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'products-services' and (select public.is_admin()));

create policy "products-services: admin update" on storage.objects
  for update to authenticated
  using (bucket_id = 'products-services' and (select public.is_admin()))
  with check (bucket_id = 'products-services' and (select public.is_admin()));

create policy "products-services: admin delete" on storage.objects
  for delete to authenticated
  using (bucket_id = 'products-services' and (select public.is_admin()));

-- payments: proofs of payment at {uid}/{timestamp}_{filename}; private to the owner and admins.
create policy "payments: insert own folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'payments' and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "payments: read own or admin" on storage.objects
  for select to authenticated
  using (
    bucket_id = 'payments'
    and ((storage.foldername(name))[1] = (select auth.uid()::text) or (select public.is_admin()))
  );

-- An owner may remove a proof no order refers to (the rollback of a failed checkout); a proof
-- that an order holds (of its payment, or of its balance) stays for the business's records.
create policy "payments: delete own unclaimed" on storage.objects
  for delete to authenticated
  using (
    bucket_id = 'payments'
    and (storage.foldername(name))[1] = (select auth.uid()::text)
    and not exists (
      select 1 from public.orders o where o.proof_path = storage.objects.name or o.balance_proof_path = storage.objects.name)
  );

create policy "personalisation: insert own folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'personalisation' and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "personalisation: read own or admin" on storage.objects
  for select to authenticated
  using (
    bucket_id = 'personalisation'
    and ((storage.foldername(name))[1] = (select auth.uid()::text) or (select public.is_admin()))
  );

create policy "avatars: insert own folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "avatars: update own folder" on storage.objects
  for update to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text))
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "avatars: delete own folder" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));

-- What still needs SELECT: an UPDATE or DELETE with a WHERE clause sees only rows a SELECT policy
-- lets it see, so the writers keep reading what they may change, and no one else lists anything.
create policy "products-services: admin read" on storage.objects
  for select to authenticated
  using (bucket_id = 'products-services' and (select public.is_admin()));

create policy "avatars: read own folder" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));

-- A public bucket's object by its exact name, as Supabase Storage's public URL finds it: its
-- type and size for the local modes' file route, or null. Never a listing: one name in, one
-- object out, and only from public buckets. Security definer because no SELECT policy covers
-- public objects any more.
create function private.public_object(p_bucket text, p_name text) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select o.metadata
  from storage.objects o
  join storage.buckets b on b.id = o.bucket_id
  where b.public and o.bucket_id = p_bucket and o.name = p_name
$$;
revoke execute on function private.public_object(text, text) from public;
grant execute on function private.public_object(text, text) to anon, authenticated, service_role;
