-- The demo catalogue: five categories and twenty products, priced in rands, each with a flat SVG
-- illustration that ships in public/catalogue/; and the demo shop settings. Run by `supabase start` / `supabase db reset`
-- (config.toml [db.seed]) and by the embedded mode on its first start. Safe to run twice.

insert into public.categories (name, created_at)
values
  ('Cleaning & Laundry', '2026-11-01 08:00:00+02'),
  ('Risk Consulting & Recruitment', '2026-11-01 08:01:00+02'),
  ('Embroidery & Branding', '2026-11-01 08:02:00+02'),
  ('Supply & Corporate Stationery', '2026-11-01 08:03:00+02'),
  ('Food Products', '2026-11-01 08:04:00+02')
on conflict (name) do nothing;

insert into public.products (id, name, description, price, image_path, category_id, created_at)
select v.id::uuid, v.name, v.description, v.price::numeric, v.image_path, c.id, v.created_at::timestamptz
from (
  values
    ('6f1c2a10-3b4d-4e5f-8a01-000000000001', 'Weekly Home Cleaning',
     'A friendly two-person team cleans your home top to bottom every week: floors, bathrooms, kitchen and dusting. We bring our own eco-friendly products.',
     '650.00', '/catalogue/weekly-home-cleaning.svg', 'Cleaning & Laundry', '2026-11-02 09:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000002', 'Wash, Dry & Fold Laundry (per 5 kg)',
     'Drop off or we collect: washed, tumble-dried, neatly folded and back with you within 48 hours. Priced per 5 kg bag.',
     '120.00', '/catalogue/wash-dry-fold.svg', 'Cleaning & Laundry', '2026-11-02 15:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000003', 'Carpet & Upholstery Deep Clean',
     'Hot-water extraction for carpets, rugs and couches. Lifts braai smoke, pet hair and red-wine stains; dry within a few hours.',
     '899.50', '/catalogue/carpet-deep-clean.svg', 'Cleaning & Laundry', '2026-11-03 09:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000004', 'Office Cleaning Contract (monthly)',
     'Daily after-hours cleaning for small offices up to 200 m² in your office park, including kitchens, bathrooms and bins.',
     '4500.00', '/catalogue/office-cleaning.svg', 'Cleaning & Laundry', '2026-11-03 15:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000005', 'Workplace Risk Assessment',
     'An on-site assessment of health, safety and security risks with a written report and a practical action plan for your team.',
     '3500.00', '/catalogue/workplace-risk-assessment.svg', 'Risk Consulting & Recruitment', '2026-11-04 09:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000006', 'Recruitment & Vetting Service',
     'We advertise, shortlist and interview for your vacancy, and check references, qualifications and criminal records before you hire.',
     '4200.00', '/catalogue/recruitment-vetting.svg', 'Risk Consulting & Recruitment', '2026-11-04 15:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000007', 'Security Risk Audit',
     'A walk-through of your premises: access control, lighting, alarms and cash handling, with clear recommendations ranked by cost.',
     '2750.00', '/catalogue/security-risk-audit.svg', 'Risk Consulting & Recruitment', '2026-11-05 09:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000008', 'CV & Interview Coaching',
     'A one-hour session to sharpen your CV and practise interview questions with an experienced recruiter. Online or in person.',
     '450.00', '/catalogue/cv-coaching.svg', 'Risk Consulting & Recruitment', '2026-11-05 15:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000009', 'Embroidered Company Golf Shirt',
     'A quality cotton-blend golf shirt with your logo embroidered on the chest. Sizes S to 3XL; minimum order of 10.',
     '189.00', '/catalogue/embroidered-golf-shirt.svg', 'Embroidery & Branding', '2026-11-06 09:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000010', 'Branded Cap',
     'A six-panel cap with your logo embroidered on the front and an adjustable strap. Great for teams, events and giveaways.',
     '95.50', '/catalogue/branded-cap.svg', 'Embroidery & Branding', '2026-11-06 15:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000011', 'Logo Digitising',
     'We turn your logo into a clean embroidery file, tested on fabric, so every shirt, cap and bag comes out crisp.',
     '350.00', '/catalogue/logo-digitising.svg', 'Embroidery & Branding', '2026-11-07 09:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000012', 'Branded Workwear Set',
     'Hard-wearing two-piece conti suit with reflective strips and your company name embroidered on the back.',
     '549.00', '/catalogue/branded-workwear.svg', 'Embroidery & Branding', '2026-11-07 15:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000013', 'A4 Copy Paper Box (5 reams)',
     'Five reams of bright-white 80 gsm A4 paper, 2 500 sheets in all, delivered to your office.',
     '329.99', '/catalogue/a4-copy-paper.svg', 'Supply & Corporate Stationery', '2026-11-08 09:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000014', 'Corporate Stationery Pack',
     'Pens, notebooks, sticky notes, a stapler and highlighters for one desk, packed in a branded box.',
     '275.00', '/catalogue/stationery-pack.svg', 'Supply & Corporate Stationery', '2026-11-08 15:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000015', 'Printer Toner Supply',
     'Compatible black toner cartridge for most office laser printers, tested for around 2 000 pages. Tell us your model.',
     '780.00', '/catalogue/printer-toner.svg', 'Supply & Corporate Stationery', '2026-11-09 09:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000016', 'Cleaning Chemicals Bulk Pack',
     'Five litres each of all-purpose cleaner, dishwashing liquid and hand soap: stock for a small office for a month.',
     '420.00', '/catalogue/cleaning-chemicals.svg', 'Supply & Corporate Stationery', '2026-11-09 15:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000017', 'Steak & Kidney Pies (6-pack)',
     'Six golden, flaky pies baked fresh every morning with a rich steak-and-kidney filling. Heat and eat.',
     '150.00', '/catalogue/steak-kidney-pies.svg', 'Food Products', '2026-11-10 09:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000018', 'Beef Noodles Bowl',
     'Stir-fried noodles with tender beef strips, peppers and a sweet-chilli sauce. A hearty lunch for one.',
     '65.00', '/catalogue/beef-noodles.svg', 'Food Products', '2026-11-10 15:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000019', 'Lunchbox Treats Box',
     'A week of lunchbox treats for the kids: muffins, biltong sticks, fruit bars and koeksisters, packed in five portions.',
     '149.50', '/catalogue/lunchbox-treats.svg', 'Food Products', '2026-11-11 09:00:00+02'),
    ('6f1c2a10-3b4d-4e5f-8a01-000000000020', 'Party Pack for 20',
     'Mini pies, sausage rolls, samoosas, chicken wings and a sweet platter to feed 20 guests. Order two days ahead.',
     '1250.00', '/catalogue/party-pack.svg', 'Food Products', '2026-11-11 15:00:00+02')
) as v (id, name, description, price, image_path, category, created_at)
join public.categories c on c.name = v.category
on conflict (id) do nothing;

-- Two products set up the way this business sells them (issue 37, docs/features.md): the workwear
-- set in sizes with the company's name and logo to embroider, and copy paper as counted stock. Each
-- product got one variant when it was inserted; the workwear's is replaced by one per size.
insert into public.product_options (product_id, position, name, choices)
values ('6f1c2a10-3b4d-4e5f-8a01-000000000012', 1, 'Size', '{S,M,L,XL,XXL}')
on conflict do nothing;

delete from public.product_variants
where product_id = '6f1c2a10-3b4d-4e5f-8a01-000000000012' and option_values = '{}'
  and not exists (select 1 from public.cart_items c where c.variant_id = product_variants.id);

insert into public.product_variants (product_id, option_values, sku, price, position)
select '6f1c2a10-3b4d-4e5f-8a01-000000000012', array[v.size], 'WW-' || v.size, v.price::numeric, v.n
from (values ('S', null, 1), ('M', null, 2), ('L', null, 3), ('XL', null, 4), ('XXL', '579.00', 5)) as v (size, price, n)
on conflict (product_id, option_values) do nothing;

insert into public.product_personalisation_fields (product_id, position, label, kind, required, max_length, price)
select f.product_id::uuid, f.position, f.label, f.kind, f.required, f.max_length, f.price
from (values
  ('6f1c2a10-3b4d-4e5f-8a01-000000000012', 1, 'Company name on the back', 'text', true, 30, 0),
  ('6f1c2a10-3b4d-4e5f-8a01-000000000012', 2, 'Logo on the chest', 'file', false, null, 45)
) as f (product_id, position, label, kind, required, max_length, price)
where not exists (select 1 from public.product_personalisation_fields p where p.product_id = f.product_id::uuid);

update public.product_variants set sku = 'A4-BOX-5', stock = 60, low_stock_at = 10
where product_id = '6f1c2a10-3b4d-4e5f-8a01-000000000013' and sku is null;

-- The shop settings (docs/architecture.md#shop-settings) with the demo values: on Supabase this is where they come
-- from; the local modes create them from SHOP_*/BANK_* before this file runs, so it changes
-- nothing there. The demo account number marks them as placeholders: in production checkout takes
-- no orders until an admin enters the real account under Shop settings.
insert into public.shop_settings (
  bank_account_name, bank_name, bank_account_number, bank_branch_code, bank_account_type,
  contact_phone, contact_email, contact_address,
  information_officer_name, information_officer_email, unpaid_order_days
)
values (
  'Our World Services (Pty) Ltd', 'First National Bank', '62812345678', '250655', 'Cheque',
  '+27 11 555 0142', 'hello@ourworldservices.co.za', '12 Market Street, Johannesburg, 2001',
  'The owner', 'hello@ourworldservices.co.za', 7
)
on conflict (id) do nothing;

insert into public.shop_private_settings (orders_email)
values ('hello@ourworldservices.co.za')
on conflict (id) do nothing;

-- The invoice settings (issue 26) with the demo values: not registered for VAT, so invoices are
-- plain "Invoice"s until an admin enters the VAT number under Shop settings. The local modes
-- create them from SHOP_VAT_NUMBER, SHOP_LEGAL_NAME, SHOP_LEGAL_ADDRESS and INVOICE_PREFIX first.
insert into public.invoice_settings (vat_registered, vat_number, legal_name, legal_address, invoice_prefix)
values (false, '', 'Our World Services (Pty) Ltd', '12 Market Street, Johannesburg, 2001', 'INV-')
on conflict (id) do nothing;
