-- Order Management shows one order's messages to its customer (mail.orderMessages): the notices
-- name the order's reference in their data.
create index mail_outbox_reference_idx on public.mail_outbox ((data ->> 'reference'));
