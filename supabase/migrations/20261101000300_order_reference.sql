-- new_order_reference(): the bank-transfer reference a customer is shown at checkout and pays
-- with, in the spec's format ORD-{random number below one million}, not yet used by any order.
-- Security definer because a customer cannot see other customers' orders to check for clashes;
-- it reveals nothing but a free reference.
create function public.new_order_reference() returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_reference text;
begin
  for attempt in 1..50 loop
    v_reference := 'ORD-' || floor(random() * 1000000)::int;
    if not exists (select 1 from public.orders where reference = v_reference) then
      return v_reference;
    end if;
  end loop;
  raise exception 'reference_exhausted';
end
$$;
revoke execute on function public.new_order_reference() from public, anon;
grant execute on function public.new_order_reference() to authenticated, service_role;
