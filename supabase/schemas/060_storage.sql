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

create policy "payments: insert own folder" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'payments' and (storage.foldername(name))[1] = (select auth.uid()::text));

create policy "payments: read own or admin" on storage.objects
  for select to authenticated
  using (
    bucket_id = 'payments'
    and ((storage.foldername(name))[1] = (select auth.uid()::text) or (select public.is_admin()))
  );

create policy "payments: delete own unclaimed" on storage.objects
  for delete to authenticated
  using (
    bucket_id = 'payments'
    and (storage.foldername(name))[1] = (select auth.uid()::text)
    and not exists (select 1 from public.orders o where o.proof_path = storage.objects.name)
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

create policy "products-services: admin read" on storage.objects
  for select to authenticated
  using (bucket_id = 'products-services' and (select public.is_admin()));

create policy "avatars: read own folder" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));

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
