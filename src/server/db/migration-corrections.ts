/**
 * Migrations corrected after they were applied somewhere. Applied migrations are never edited,
 * with one exception: a file that cannot apply on Supabase at all (docs/architecture.md#supabase-is-not-a-superuser) must be
 * corrected there, or `supabase start` / `db push` stop at it. A database that applied the first
 * text keeps it (the runner accepts the listed checksums and records the corrected one), and a
 * later migration brings that database to the corrected state, so all databases end up alike.
 *
 * To correct a migration: edit it, list the checksum of the text it replaces here (sha256 of the
 * file, as `shop_meta.migrations.checksum` holds it) with the reason, and add the migration that
 * supersedes the old text's objects.
 */
export const CORRECTED_MIGRATIONS: Readonly<Record<string, { replaces: readonly string[]; why: string; supersededBy: string }>> = {
  "20261124000210": {
    replaces: ["d9427498cb06c5dedcf8711fcc784672740b3e0bd6e80d7fd9485bf9a63a1194"],
    why: "its function's `set shop.status_reason` clause is refused on Supabase (postgres is not a superuser)",
    supersededBy: "20261128000000",
  },
};
