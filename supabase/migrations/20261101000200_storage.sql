-- Storage buckets and their policies. Buckets are created here, not in config.toml, because a
-- migration is the one place that works in every run mode.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('products-services', 'products-services', true, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('payments', 'payments', false, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('avatars', 'avatars', true, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/gif'])
on conflict (id) do nothing;

-- products-services: product images, public; only admins write.
create policy "products-services: read all" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'products-services');
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
-- that an order holds stays for the business's records.
create policy "payments: delete own unclaimed" on storage.objects
  for delete to authenticated
  using (
    bucket_id = 'payments'
    and (storage.foldername(name))[1] = (select auth.uid()::text)
    and not exists (select 1 from public.orders o where o.proof_path = storage.objects.name)
  );

-- avatars: profile pictures at {uid}/...; public to read, the owner writes.
create policy "avatars: read all" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'avatars');
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
