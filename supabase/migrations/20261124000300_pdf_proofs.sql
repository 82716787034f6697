-- Proofs of payment may be PDF: South African banking apps save them that way. The upload is
-- checked by content on the server (src/server/storage/pdf-check.ts) before it reaches storage;
-- product images and profile pictures stay images only. On Supabase the bucket's own settings
-- refuse any other type at the Storage API too.
update storage.buckets
set allowed_mime_types = array['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'application/pdf']
where id = 'payments';
