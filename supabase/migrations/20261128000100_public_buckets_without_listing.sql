-- Public buckets without listing (ARCHITECTURE §16; Supabase's advisor, lint
-- public_bucket_allows_listing). Supersedes the "read all" policies of 20261101000200_storage.sql:
-- a SELECT policy of `bucket_id = '<bucket>'` for anon and authenticated let anyone list every
-- file of a public bucket through the Storage API, which for avatars listed every customer's id.
-- A public URL needs no policy at all (Storage serves public buckets itself; the local modes'
-- file route reads the object through private.public_object() below).
drop policy "products-services: read all" on storage.objects;
drop policy "avatars: read all" on storage.objects;

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
