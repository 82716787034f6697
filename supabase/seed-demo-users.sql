-- Demo accounts for development only (supabase start / db reset, and the embedded mode outside
-- production). Never run this against a production database.
--   admin:    admin@example.com    / admin-demo-2026
--   customer: customer@example.com / customer-demo-2026
-- Token columns are '' rather than NULL: Supabase Auth cannot read a user whose tokens are NULL.

insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change
)
values
  ('00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-00000000ad01', 'authenticated', 'authenticated',
   'admin@example.com', '$2b$10$0hQ62IkfXsivGRpN3nCer.FTnDzN2ZX.QMzUTzQqeeZn34SX7ZWma', now(),
   '{"provider": "email", "providers": ["email"]}', '{"full_name": "Demo Admin"}', now(), now(), '', '', '', ''),
  ('00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-00000000c001', 'authenticated', 'authenticated',
   'customer@example.com', '$2b$10$7rNF83NQv9DJVYDUBBcmvOm.Q7sN7Ck3vVOFcrWOfIfMlNEofwG52', now(),
   '{"provider": "email", "providers": ["email"]}', '{"full_name": "Thandi Demo"}', now(), now(), '', '', '', '')
on conflict (id) do nothing;

insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true), 'email', now(), now()
from auth.users u
where u.id in ('a0000000-0000-4000-8000-00000000ad01', 'a0000000-0000-4000-8000-00000000c001')
on conflict (provider_id, provider) do nothing;

update public.profiles set role = 'admin' where id = 'a0000000-0000-4000-8000-00000000ad01';
