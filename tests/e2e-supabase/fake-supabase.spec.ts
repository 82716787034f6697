import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { expect, test } from "../e2e/test";
import { makePng } from "../helpers/images";
import { DEMO_ADMIN, DEMO_CUSTOMER, fakeSupabase, uniqueEmail } from "./fixtures";

/**
 * The fake itself, through supabase-js as the shop's server uses it: the answers the browser
 * tests rely on without seeing them (token rotation, the PKCE check, Storage's refusals) have the
 * real services' shapes. No browser here.
 */
type SupportedStorage = { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };

function memoryStorage(): SupportedStorage {
  const items = new Map<string, string>();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value), removeItem: (key) => void items.delete(key) };
}

async function newClient(options: { pkce?: boolean; storage?: SupportedStorage } = {}): Promise<SupabaseClient> {
  const { url, anonKey } = await fakeSupabase.project();
  return createClient(url, anonKey, {
    auth: {
      autoRefreshToken: false,
      detectSessionInUrl: false,
      persistSession: options.storage !== undefined,
      storage: options.storage,
      flowType: options.pkce ? "pkce" : "implicit",
    },
  });
}

/** What supabase-js reports of a Storage refusal: the HTTP status, and Storage's own status and message. */
function storageError(error: unknown) {
  const { status, statusCode, message } = (error ?? {}) as { status?: number; statusCode?: string; message?: string };
  return { status, statusCode, message };
}

async function signedIn(account: { email: string; password: string }) {
  const client = await newClient({ storage: memoryStorage() });
  const { data, error } = await client.auth.signInWithPassword(account);
  expect(error).toBeNull();
  return { client, session: data.session!, userId: data.user!.id };
}

test.describe("fake Supabase Auth", () => {
  test("refresh tokens rotate; a rotated one still answers within the reuse interval; sign-out ends the session", async () => {
    const { client, session } = await signedIn(DEMO_CUSTOMER);
    const first = await client.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(first.error).toBeNull();
    expect(first.data.session!.refresh_token).not.toBe(session.refresh_token);
    // Two requests refreshing with the same token at once both get the session's current one.
    const again = await client.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(again.data.session!.refresh_token).toBe(first.data.session!.refresh_token);

    await client.auth.signOut();
    const user = await client.auth.getUser(first.data.session!.access_token);
    expect(user.error?.name).toBe("AuthSessionMissingError");
    const refreshed = await client.auth.refreshSession({ refresh_token: first.data.session!.refresh_token });
    expect(refreshed.error?.code).toBe("refresh_token_not_found");
  });

  test("sign-up refuses a taken address and a short password in GoTrue's words", async () => {
    const client = await newClient();
    const taken = await client.auth.signUp({ email: DEMO_CUSTOMER.email, password: "long-enough-2026" });
    expect({ status: taken.error?.status, code: taken.error?.code }).toEqual({ status: 422, code: "user_already_exists" });
    const weak = await client.auth.signUp({ email: uniqueEmail("weak"), password: "12345" });
    expect({ status: weak.error?.status, code: weak.error?.code }).toEqual({ status: 422, code: "weak_password" });
  });

  test.describe("with e-mail confirmation on", () => {
    test.beforeEach(() => fakeSupabase.setEmailConfirmation(true));
    test.afterEach(() => fakeSupabase.setEmailConfirmation(false));

    test("a confirmation link's code is exchanged once, and only with the signing-up client's verifier (S256)", async () => {
      const { url, anonKey } = await fakeSupabase.project();
      const storage = memoryStorage();
      const signingUp = await newClient({ pkce: true, storage });
      const email = uniqueEmail("pkce");
      const signUp = await signingUp.auth.signUp({ email, password: "pkce-pass-2026", options: { emailRedirectTo: "http://localhost:3110/auth/callback" } });
      expect(signUp.error).toBeNull();
      expect(signUp.data.session).toBeNull();

      const [mail] = await fakeSupabase.mails(email);
      const verified = await fetch(mail!.link, { redirect: "manual" });
      expect(verified.status).toBe(303);
      const code = new URL(verified.headers.get("location")!).searchParams.get("code")!;
      expect(code).toBeTruthy();

      const exchange = (verifier: string) =>
        fetch(`${url}/auth/v1/token?grant_type=pkce`, {
          method: "POST",
          headers: { apikey: anonKey, "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
          body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
        });
      const wrong = await exchange("a".repeat(56));
      expect(wrong.status).toBe(403);
      expect(await wrong.json()).toMatchObject({ code: "bad_code_verifier" });

      const { data, error } = await signingUp.auth.exchangeCodeForSession(code);
      expect(error).toBeNull();
      expect(data.user!.email).toBe(email);
      expect(data.user!.email_confirmed_at).toBeTruthy();
      const spent = await exchange("a".repeat(56));
      expect(spent.status).toBe(404);
    });
  });
});

test.describe("fake Supabase Storage", () => {
  test("writes and reads run as the caller, so the storage policies decide; the bucket's limits hold", async () => {
    const customer = await signedIn(DEMO_CUSTOMER);
    const admin = await signedIn(DEMO_ADMIN);
    const png = makePng(8, 8);
    const avatars = customer.client.storage.from("avatars");
    const own = `${customer.userId}/${Date.now()}_me.png`;
    expect((await avatars.upload(own, png, { contentType: "image/png" })).error).toBeNull();

    const refused = await admin.client.storage.from("avatars").upload(`${customer.userId}/${Date.now()}_not-mine.png`, png, { contentType: "image/png" });
    expect(storageError(refused.error)).toEqual({ status: 400, statusCode: "403", message: "new row violates row-level security policy" });
    const text = await avatars.upload(`${customer.userId}/note.txt`, Buffer.from("hello"), { contentType: "text/plain" });
    expect(storageError(text.error)).toEqual({ status: 400, statusCode: "415", message: "mime type text/plain is not supported" });
    const huge = await avatars.upload(`${customer.userId}/huge.png`, Buffer.alloc(5 * 1024 * 1024 + 1), { contentType: "image/png" });
    expect(storageError(huge.error)).toEqual({ status: 400, statusCode: "413", message: "The object exceeded the maximum allowed size" });

    // Public bucket: anyone reads the public URL. Private bucket: its public URL answers 400.
    expect((await fetch(avatars.getPublicUrl(own).data.publicUrl)).status).toBe(200);
    const proof = `${customer.userId}/${Date.now()}_proof.png`;
    const payments = customer.client.storage.from("payments");
    expect((await payments.upload(proof, png, { contentType: "image/png" })).error).toBeNull();
    expect((await fetch(payments.getPublicUrl(proof).data.publicUrl)).status).toBe(400);

    // Signed URLs: for the owner and admins (the policy), "Object not found" for anyone else.
    const signed = await payments.createSignedUrl(proof, 60);
    expect((await fetch(signed.data!.signedUrl)).status).toBe(200);
    expect((await admin.client.storage.from("payments").createSignedUrl(proof, 60)).error).toBeNull();
    const stranger = await newClient();
    expect((await stranger.storage.from("payments").createSignedUrl(proof, 60)).error?.message).toBe("Object not found");

    // A delete the policies do not allow removes nothing, silently; the owner's removes it.
    expect((await stranger.storage.from("avatars").remove([own])).data).toEqual([]);
    expect((await fetch(avatars.getPublicUrl(own).data.publicUrl)).status).toBe(200);
    expect((await avatars.remove([own])).data).toHaveLength(1);
    expect((await fetch(avatars.getPublicUrl(own).data.publicUrl)).status).toBe(400);
    expect((await payments.remove([proof])).data).toHaveLength(1);
  });
});
