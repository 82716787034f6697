import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type ShopDatabase } from "@/server/db/database";
import { COMPAT_FILE, migrate, MIGRATIONS_DIR } from "@/server/db/migrate";

/**
 * The opening hours migration (issue 34, 20261205000000_opening_hours.sql): a shop's free-text
 * collection hours and closed weekdays become seven rows, sensibly. Each case migrates a fresh
 * PGlite up to the migration before it, writes the old settings, then applies the rest.
 */

const OPENING_HOURS = "20261205000000";
const opened: ShopDatabase[] = [];
const roots: string[] = [];

/** A project root holding the compatibility schema and the migrations before the opening hours. */
function rootBefore(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-migrations-"));
  roots.push(root);
  fs.mkdirSync(path.join(root, path.dirname(COMPAT_FILE)), { recursive: true });
  fs.copyFileSync(COMPAT_FILE, path.join(root, COMPAT_FILE));
  fs.mkdirSync(path.join(root, MIGRATIONS_DIR), { recursive: true });
  for (const file of fs.readdirSync(MIGRATIONS_DIR).filter((name) => name < OPENING_HOURS)) {
    fs.copyFileSync(path.join(MIGRATIONS_DIR, file), path.join(root, MIGRATIONS_DIR, file));
  }
  return root;
}

async function migratedFrom(old: { hours: string; closedWeekdays: number[] }) {
  const database = await openDatabase({ engine: "pglite" });
  opened.push(database);
  await migrate(database.kysely, rootBefore());
  await sql`update public.fulfilment_settings set collection_hours = ${old.hours}, closed_weekdays = ${`{${old.closedWeekdays.join(",")}}`}::smallint[]`.execute(database.kysely);
  await migrate(database.kysely);
  const { rows } = await sql<{ weekday: number; open: boolean; hours: string }>`
    select weekday, open, to_char(opens, 'HH24:MI') || '-' || to_char(closes, 'HH24:MI') as hours from public.opening_hours order by weekday`.execute(database.kysely);
  return rows.map((row) => `${row.weekday}:${row.open ? row.hours : "closed"}`);
}

afterAll(async () => {
  for (const database of opened) await database.close();
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

describe("the opening hours migration", () => {
  it("without closed weekdays: Monday to Friday at the hours the text gave, the weekend closed", async () => {
    expect(await migratedFrom({ hours: "Mon-Fri 08:30-17:00", closedWeekdays: [] })).toEqual([
      "1:08:30-17:00", "2:08:30-17:00", "3:08:30-17:00", "4:08:30-17:00", "5:08:30-17:00", "6:closed", "7:closed",
    ]);
  });

  it("with closed weekdays: every other day open; 09:00-16:00 when the text gives no hours", async () => {
    expect(await migratedFrom({ hours: "Ask us", closedWeekdays: [7] })).toEqual([
      "1:09:00-16:00", "2:09:00-16:00", "3:09:00-16:00", "4:09:00-16:00", "5:09:00-16:00", "6:09:00-16:00", "7:closed",
    ]);
  });
});
