/**
 * Property-based fuzzing of every tRPC procedure (fast-check), signed in as each role: whatever
 * the input, the answer is a result or a validation/permission refusal with a clear message,
 * never a server error; and a refused call changes no row and leaves no file behind.
 * FUZZ_RUNS sets the inputs per procedure and role: 100 in `npm test`, 500 in CI (`npm run test:fuzz`).
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { TRPCError } from "@trpc/server";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/root";
import { callerAs, testStorageRoot, type Caller } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { makeJpeg, makePng } from "../helpers/images";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

/** The refusals a caller may get for bad input or missing rights: never a 5xx. */
const CLIENT_ERRORS = new Set(["BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "TOO_MANY_REQUESTS", "PRECONDITION_FAILED", "PAYLOAD_TOO_LARGE", "UNPROCESSABLE_CONTENT"]);

/** What a clear message is not: empty, a stack, a database error, a serialised object. */
const UNCLEAR = /^\s*$|^\s*[[{]|\bat \w+ \(|syntax error|violates|relation "|column "|\[object Object\]/i;

type Role = "visitor" | "customer" | "admin";

interface Procedure {
  path: string;
  type: "query" | "mutation" | "subscription";
}

// At run time tRPC keeps every procedure in one flat record under its dotted path.
const procedures: Procedure[] = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: Procedure["type"] } }>).map(
  ([procedurePath, procedure]) => ({ path: procedurePath, type: procedure._def.type }),
);

/**
 * Calls that would end the role's own session or account for every later input, or open a
 * stream: fuzzed as a visitor (who must be refused) and covered by their own tests otherwise.
 */
const ONLY_AS_VISITOR = new Set(["profile.deleteAccount", "live.changes"]);

/** Field names the API uses, so generated objects often get past the first checks. */
const FIELDS = [
  "id", "productId", "name", "description", "price", "categoryId", "category", "email", "phone", "message",
  "password", "confirmPassword", "fullName", "acceptTerms", "status", "search", "sort", "page", "perPage",
  "available", "next", "reference", "idempotencyKey", "image", "proof", "cursor",
] as const;

const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.uuid(),
  fc.constantFrom("", " ", "ORD-1", "ORD-999999", "pending_delivery", "complete", "newest", "Food Products", "a@b.co", "../../etc/passwd", "<script>", "'; drop table products; --", "0", "-1", "1e309", "R 100,00"),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.array(fc.string(), { maxLength: 3 }),
);

const objectInput = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 });

/** Multipart forms, as uploads arrive: random fields and a file that is or only pretends to be an image. */
const formInput = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(fc.string(), fc.uuid(), fc.constantFrom("12.50", "0", "-3", "ORD-42")), { maxKeys: 6 }),
    fc.constantFrom("image", "proof", "file"),
    fc.oneof(
      fc.uint8Array({ maxLength: 2_000 }).map((bytes) => ({ bytes: Buffer.from(bytes), type: "image/png" })),
      fc.constant({ bytes: makePng(), type: "image/png" }),
      fc.constant({ bytes: makeJpeg(), type: "image/png" }),
      fc.constant({ bytes: Buffer.from("<svg onload=alert(1)>"), type: "image/svg+xml" }),
    ),
    fc.constantFrom("proof.png", "../../x.png", "a".repeat(300) + ".png", "x.exe", ""),
  )
  .map(([fields, fileField, file, fileName]) => {
    const form = new FormData();
    for (const [key, text] of Object.entries(fields)) form.set(key, text);
    form.set(fileField, new File([new Uint8Array(file.bytes)], fileName, { type: file.type }));
    return form;
  });

const anyInput: fc.Arbitrary<unknown> = fc.oneof(objectInput, formInput, fc.anything(), fc.constant(undefined));

let db: TestDatabase;
let callers: Record<Role, Caller>;
const tally = { inputs: 0, refused: 0, succeeded: 0 };

beforeAll(async () => {
  db = await freshDatabase();
  const [customer, admin]: TestUser[] = [await createUser(db, { fullName: "Fuzz Customer" }), await createUser(db, { role: "admin" })];
  callers = { visitor: await callerAs(db, null), customer: await callerAs(db, customer!), admin: await callerAs(db, admin!) };
});

afterAll(async () => {
  console.log(`[fuzz] ${tally.inputs} inputs: ${tally.refused} refused, ${tally.succeeded} answered`);
  await db.close();
});

/** Every row the shop keeps, as one hash: equal before and after means nothing changed. */
async function fingerprint(): Promise<string> {
  const { rows } = await sql<{ hash: string }>`
    select md5(string_agg(row_hash, ',' order by row_hash)) as hash from (
      select 'products' || md5(t::text) as row_hash from public.products t
      union all select 'categories' || md5(t::text) from public.categories t
      union all select 'cart' || md5(t::text) from public.cart_items t
      union all select 'orders' || md5(t::text) from public.orders t
      union all select 'reservations' || md5(t::text) from public.checkout_references t
      union all select 'items' || md5(t::text) from public.order_items t
      union all select 'events' || md5(t::text) from public.order_status_events t
      union all select 'messages' || md5(t::text) from public.contact_messages t
      union all select 'profiles' || md5(t::text) from public.profiles t
      union all select 'users' || md5(t::text) from auth.users t
      union all select 'objects' || md5(t::text) from storage.objects t
      union all select 'settings' || md5(t::text) from public.shop_settings t
      union all select 'private_settings' || md5(t::text) from public.shop_private_settings t
    ) all_rows`.execute(db.kysely);
  return rows[0]!.hash;
}

function filesOnDisk(): number {
  const root = testStorageRoot(db);
  return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).filter((name) => fs.statSync(path.join(root, String(name))).isFile()).length : 0;
}

function call(caller: Caller, procedurePath: string, input: unknown): Promise<unknown> {
  const [router, name] = procedurePath.split(".") as [string, string];
  const procedure = (caller as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>)[router]![name]!;
  return procedure(input);
}

describe(`fuzzing every procedure (${procedures.length} procedures, ${RUNS} inputs each per role)`, () => {
  it("the router has the procedures this test expects to reach", () => {
    expect(procedures.length).toBeGreaterThanOrEqual(30);
  });

  for (const role of ["visitor", "customer", "admin"] as const) {
    for (const procedure of procedures) {
      if (role !== "visitor" && ONLY_AS_VISITOR.has(procedure.path)) continue;
      it(`${procedure.path} as ${role}`, async () => {
        let before = procedure.type === "mutation" ? await fingerprint() : "";
        let filesBefore = procedure.type === "mutation" ? filesOnDisk() : 0;
        await fc.assert(
          fc.asyncProperty(anyInput, async (input) => {
            tally.inputs++;
            let error: unknown;
            try {
              await call(callers[role], procedure.path, input);
              tally.succeeded++;
            } catch (thrown) {
              error = thrown;
              tally.refused++;
            }
            if (error !== undefined) {
              expect(error, `${procedure.path} threw something other than a TRPCError`).toBeInstanceOf(TRPCError);
              const refusal = error as TRPCError;
              expect(CLIENT_ERRORS.has(refusal.code), `${procedure.path} answered ${refusal.code}: ${refusal.message}`).toBe(true);
              expect(refusal.message, `${procedure.path}: unclear message`).not.toMatch(UNCLEAR);
            }
            if (procedure.type !== "mutation") return;
            const after = await fingerprint();
            const filesAfter = filesOnDisk();
            if (error !== undefined) {
              expect(after, `${procedure.path} changed rows although it refused`).toBe(before);
              expect(filesAfter, `${procedure.path} left files behind although it refused`).toBe(filesBefore);
            }
            before = after;
            filesBefore = filesAfter;
          }),
          { numRuns: RUNS },
        );
      }, 300_000);
    }
  }
});
