import { sql, type Kysely, type RawBuilder } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "@/server/db/schema";
import { freshDatabase, type TestDatabase } from "../helpers/database";
import { SCHEMAS_DIR } from "../helpers/schema-files";

/**
 * supabase/schemas/ (the declarative schema, docs/schema-changes.md) must say what the migrations
 * make. One database is built from the compatibility schema and supabase/migrations/, one from
 * the compatibility schema and supabase/schemas/ in file order (on the Supabase-privileged cluster
 * both from its platform, as the non-superuser postgres), and their catalogs are compared object
 * by object: any difference fails, naming the object, with both definitions.
 *
 * Compared, in the schemas the migrations own (public, private) and the platform's schemas they
 * add to (auth, storage: triggers on auth.users, policies on storage.objects):
 * schemas and their privileges, enum types, tables and sequences (kind, row-level security,
 * columns in order with type, nullability, default, identity and generation), constraints,
 * indexes, functions (pg_get_functiondef: arguments, result, language, volatility, security,
 * SET clauses and body), triggers, policies, privileges on tables, columns, sequences, functions
 * and types, default privileges, the publications' tables, and the rows the migrations insert
 * (buckets, settings, counters, opening hours; time stamps left out).
 */

const SCHEMAS = ["public", "private", "auth", "storage"];

type Catalog = Map<string, string>;

async function rows<T>(db: Kysely<DB>, query: RawBuilder<T>): Promise<T[]> {
  return (await query.execute(db)).rows;
}

/** Every object of the compared schemas as "kind name" → its definition. */
async function catalog(db: Kysely<DB>): Promise<Catalog> {
  const out: Catalog = new Map();
  const put = (key: string, value: string) => {
    if (out.has(key)) out.set(key, `${out.get(key)}\n${value}`);
    else out.set(key, value);
  };
  const schemas = sql.join(SCHEMAS.map((s) => sql.lit(s)));
  // "role:PRIVILEGE" for each grant but the owner's own, sorted ("*": with grant option).
  const grants = (aclColumn: string, owner: string) => sql.raw(`(
    select coalesce(string_agg(g.item, ' ' order by g.item), '')
    from (select distinct (case when a.grantee = 0 then 'public' else pg_get_userbyid(a.grantee) end) || ':' || a.privilege_type
                          || case when a.is_grantable then '*' else '' end as item
          from aclexplode(${aclColumn}) a where a.grantee <> ${owner}) g)`);

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select n.nspname as name, pg_get_userbyid(n.nspowner) || ' ' || ${grants("coalesce(n.nspacl, acldefault('n', n.nspowner))", "n.nspowner")} as def
    from pg_namespace n where n.nspname in (${schemas})`)) {
    put(`schema ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select format('%I.%I', n.nspname, t.typname) as name,
           t.typtype::text || ' ' || coalesce((select string_agg(e.enumlabel, ', ' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid), '')
             || ' ' || ${grants("coalesce(t.typacl, acldefault('T', t.typowner))", "t.typowner")} as def
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where n.nspname in (${schemas}) and t.typtype in ('e', 'd', 'c') and (t.typrelid = 0 or (select relkind from pg_class where oid = t.typrelid) = 'c')`)) {
    put(`type ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select format('%I.%I', n.nspname, c.relname) as name,
           'kind ' || c.relkind::text || ', rls ' || c.relrowsecurity || ', forced ' || c.relforcerowsecurity || e'\n' ||
           coalesce((select string_agg(
              format('  %I %s%s%s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                case when a.attnotnull then ' not null' else '' end,
                coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), ''),
                case a.attidentity when 'a' then ' identity always' when 'd' then ' identity by default' else '' end,
                case a.attgenerated when 's' then ' stored' else '' end), e'\n' order by a.attnum)
            from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '') as def
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in (${schemas}) and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`)) {
    put(`table ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select format('%I.%I %I', n.nspname, (select relname from pg_class where oid = c.conrelid), c.conname) as name,
           pg_get_constraintdef(c.oid) || case when c.condeferrable then ' deferrable' else '' end
             || case when c.condeferred then ' initially deferred' else '' end as def
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace
    where n.nspname in (${schemas}) and c.conrelid <> 0`)) {
    put(`constraint ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select format('%I.%I', n.nspname, (select relname from pg_class where oid = i.indexrelid)) as name, pg_get_indexdef(i.indexrelid) as def
    from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in (${schemas})`)) {
    put(`index ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as name,
           pg_get_functiondef(p.oid) || e'\n-- execute: ' || ${grants("coalesce(p.proacl, acldefault('f', p.proowner))", "p.proowner")} as def
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in (${schemas}) and p.prokind in ('f', 'p')`)) {
    put(`function ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select format('%I.%I %I', n.nspname, c.relname, t.tgname) as name, pg_get_triggerdef(t.oid) || ' (enabled ' || t.tgenabled::text || ')' as def
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in (${schemas}) and not t.tgisinternal`)) {
    put(`trigger ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select format('%I.%I %I', schemaname, tablename, policyname) as name,
           format('%s %s to %s using (%s) with check (%s)', permissive, cmd, roles::text, qual, with_check) as def
    from pg_policies where schemaname in (${schemas})`)) {
    put(`policy ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select format('%I.%I', n.nspname, c.relname) as name, ${grants("c.relacl", "c.relowner")} as def
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in (${schemas}) and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`)) {
    put(`grants on ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select format('%I.%I.%I', n.nspname, c.relname, a.attname) as name, ${grants("a.attacl", "c.relowner")} as def
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in (${schemas}) and a.attacl is not null and not a.attisdropped`)) {
    put(`column grants on ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select pg_get_userbyid(d.defaclrole) || ' in ' || coalesce(n.nspname, 'every schema') || ' on ' || d.defaclobjtype::text as name,
           ${grants("d.defaclacl", "-1")} as def
    from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace`)) {
    put(`default privileges of ${r.name}`, r.def);
  }

  for (const r of await rows(db, sql<{ name: string; def: string }>`
    select p.pubname as name,
           coalesce((select string_agg(format('%I.%I', t.schemaname, t.tablename), ', ' order by t.schemaname, t.tablename)
                     from pg_publication_tables t where t.pubname = p.pubname), '')
             || format(' (all tables %s, insert %s, update %s, delete %s, truncate %s)', p.puballtables, p.pubinsert, p.pubupdate, p.pubdelete, p.pubtruncate) as def
    from pg_publication p`)) {
    put(`publication ${r.name}`, r.def);
  }

  // The rows the migrations insert (the app needs them: buckets, settings rows, counters, hours).
  const tables = await rows(db, sql<{ name: string; columns: string[] }>`
    select format('%I.%I', n.nspname, c.relname) as name,
           array_agg(quote_ident(a.attname) order by a.attnum) filter (where a.atttypid not in ('timestamptz'::regtype, 'timestamp'::regtype)) as columns
    from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where (n.nspname in ('public', 'private') or c.oid = 'storage.buckets'::regclass) and c.relkind = 'r'
    group by n.nspname, c.relname`);
  for (const table of tables) {
    const list = table.columns.join(", ");
    const data = await rows(db, sql<{ row: string }>`
      select row::text from (select ${sql.raw(list)} from ${sql.raw(table.name)}) row order by 1`);
    if (data.length > 0) put(`rows of ${table.name}`, data.map((d) => d.row).join("\n"));
  }
  return out;
}

/** The first lines where two definitions part, with a little context. */
function lineDiff(a: string, b: string): string {
  const left = a.split("\n");
  const right = b.split("\n");
  let i = 0;
  while (i < left.length && i < right.length && left[i] === right[i]) i++;
  const from = Math.max(0, i - 2);
  const show = (lines: string[], sign: string) => lines.slice(from, i + 3).map((line, k) => `${from + k === i ? sign : " "} ${line}`);
  return [`  first difference at line ${i + 1}:`, "  migrations:", ...show(left, "-"), `  ${SCHEMAS_DIR}:`, ...show(right, "+")].join("\n");
}

function compareCatalogs(fromMigrations: Catalog, fromSchemas: Catalog): string[] {
  const differences: string[] = [];
  for (const [key, def] of fromMigrations) {
    const other = fromSchemas.get(key);
    if (other === undefined) differences.push(`${key}: made by the migrations, missing from ${SCHEMAS_DIR}\n${def}`);
    else if (other !== def) differences.push(`${key}: differs\n${lineDiff(def, other)}`);
  }
  for (const [key, def] of fromSchemas) {
    if (!fromMigrations.has(key)) differences.push(`${key}: in ${SCHEMAS_DIR}, not made by the migrations\n${def}`);
  }
  return differences.sort();
}

let migrated: TestDatabase;
let declared: TestDatabase;

beforeAll(async () => {
  migrated = await freshDatabase({ seed: false });
  declared = await freshDatabase({ seed: false, from: "schemas" });
}, 120_000);

afterAll(async () => {
  await migrated?.close();
  await declared?.close();
});

describe(`the declarative schema (${SCHEMAS_DIR})`, () => {
  it("builds the same database as the migrations", async () => {
    const fromMigrations = await catalog(migrated.kysely);
    const fromSchemas = await catalog(declared.kysely);
    // Sanity: the comparison sees the shop's objects at all.
    expect(fromMigrations.has("function public.place_order(p_idempotency_key uuid, p_reference text, p_proof_path text, p_fulfilment jsonb)")).toBe(true);
    expect(fromMigrations.has("policy storage.objects \"payments: read own or admin\"")).toBe(true);
    expect(fromMigrations.has("trigger auth.users on_auth_user_created")).toBe(true);
    expect(fromMigrations.has("rows of storage.buckets")).toBe(true);

    const differences = compareCatalogs(fromMigrations, fromSchemas);
    expect(differences, `${differences.length} difference(s):\n\n${differences.join("\n\n")}`).toEqual([]);
  });
});
