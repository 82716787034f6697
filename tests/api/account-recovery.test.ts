import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "kysely";
import { accountMessages, messages } from "@/lib/messages";
import { PASSWORD_RESET_EMAIL_LIMIT } from "@/lib/constants";
import { hashToken } from "@/server/platform/adapters/local/local-auth";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs, freshRequestLimits, TestBrowser } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";

/*
 * Account recovery and account settings in the local modes (issue 34): "Forgot password?", the
 * reset link, and the profile's password and e-mail changes. Every refusal changes nothing.
 */

let db: TestDatabase;
const a = accountMessages;

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
});

afterAll(async () => {
  await db?.close();
});

const PASSWORD = "braai-2026";

/** A new customer, signed in in the browser returned. */
async function newCustomer(options: ConstructorParameters<typeof TestBrowser>[1] = {}) {
  const email = `recover-${randomUUID().slice(0, 8)}@example.test`;
  const browser = new TestBrowser(db, options);
  await browser.call((c) => c.auth.signUp({ fullName: "Lerato Mokoena", email, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true }));
  const user = await browser.call((c) => c.auth.session());
  return { email, browser, id: user!.id };
}

/** The mails the outbox holds for `recipient`, newest last. */
async function mailsTo(recipient: string) {
  return db.kysely.selectFrom("mail_outbox").select(["template", "data", "created_at"]).where("recipient", "=", recipient).orderBy("created_at").execute();
}

/** The token of the newest `template` mail to `recipient`. */
async function tokenMailed(recipient: string, template = "password_reset"): Promise<string> {
  const mail = (await mailsTo(recipient)).filter((row) => row.template === template).at(-1);
  expect(mail, `a ${template} mail to ${recipient}`).toBeDefined();
  return (mail!.data as { token: string }).token;
}

async function passwordHashOf(id: string) {
  return (await db.kysely.selectFrom("auth.users").select("encrypted_password").where("id", "=", id).executeTakeFirstOrThrow()).encrypted_password;
}

async function sessionCount(id: string) {
  return (await db.kysely.selectFrom("auth.sessions").select("id").where("user_id", "=", id).execute()).length;
}

async function signsIn(email: string, password: string) {
  try {
    await new TestBrowser(db).call((c) => c.auth.signIn({ email, password }));
    return true;
  } catch {
    return false;
  }
}

const newPassword = (password: string, token?: string) => ({ token, password, confirmPassword: password });

describe("forgot password", () => {
  it("mails a single-use link and keeps only its hash; the answer is the same for an unknown address", async () => {
    const { email, id } = await newCustomer();
    const known = await new TestBrowser(db).call((c) => c.auth.requestPasswordReset({ email }));
    const unknownEmail = `nobody-${randomUUID().slice(0, 8)}@example.test`;
    const unknown = await new TestBrowser(db).call((c) => c.auth.requestPasswordReset({ email: unknownEmail }));
    expect(known).toEqual({ message: a.resetRequested });
    expect(unknown).toEqual(known);
    expect(await mailsTo(unknownEmail)).toEqual([]);

    const token = await tokenMailed(email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await db.kysely.selectFrom("private.account_tokens").selectAll().where("user_id", "=", id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "password_reset", token_hash: hashToken(token), used_at: null });
    // The token itself is nowhere in the table; the link lives at most an hour.
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(new Date(rows[0]!.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(60 * 60_000);
  });

  it("sets the new password, signs in, ends every other session, and the link cannot be used twice", async () => {
    const { email, id, browser: other } = await newCustomer();
    expect(await other.call((c) => c.auth.session())).not.toBeNull();
    await new TestBrowser(db).call((c) => c.auth.requestPasswordReset({ email }));
    const token = await tokenMailed(email);

    const resetter = new TestBrowser(db);
    const done = await resetter.call((c) => c.auth.resetPassword(newPassword("new-braai-2026", token)));
    expect(done.message).toBe(a.passwordReset);
    expect(await resetter.call((c) => c.auth.session())).toMatchObject({ id, email });
    // The session that was signed in before the reset is over; only the resetter's is left.
    expect(await other.call((c) => c.auth.session())).toBeNull();
    expect(await sessionCount(id)).toBe(1);
    expect(await signsIn(email, PASSWORD)).toBe(false);
    expect(await signsIn(email, "new-braai-2026")).toBe(true);

    const hash = await passwordHashOf(id);
    const again = await trpcRefusal(new TestBrowser(db).call((c) => c.auth.resetPassword(newPassword("third-braai-2026", token))));
    expect({ code: again.code, message: again.message }).toEqual({ code: "BAD_REQUEST", message: a.resetLinkInvalid });
    expect(await passwordHashOf(id)).toBe(hash);
  });

  it("refuses an expired link and changes nothing", async () => {
    const { email, id } = await newCustomer();
    await new TestBrowser(db).call((c) => c.auth.requestPasswordReset({ email }));
    const token = await tokenMailed(email);
    await db.kysely.updateTable("private.account_tokens").set({ expires_at: new Date(Date.now() - 1000) }).where("token_hash", "=", hashToken(token)).execute();
    const hash = await passwordHashOf(id);
    const sessions = await sessionCount(id);
    const error = await trpcRefusal(new TestBrowser(db).call((c) => c.auth.resetPassword(newPassword("new-braai-2026", token))));
    expect(error.message).toBe(a.resetLinkInvalid);
    expect(await passwordHashOf(id)).toBe(hash);
    expect(await sessionCount(id)).toBe(sessions);
  });

  it.each([
    ["an unknown token", () => "x".repeat(43)],
    ["a malformed token", () => "not-a-token"],
    ["no token", () => undefined],
  ])("refuses %s plainly", async (_case, token) => {
    const error = await trpcRefusal(new TestBrowser(db).call((c) => c.auth.resetPassword(newPassword("new-braai-2026", token()))));
    expect(error.message).toBe(a.resetLinkInvalid);
  });

  it("refuses a weak or mismatched new password and leaves the link usable", async () => {
    const { email, id } = await newCustomer();
    await new TestBrowser(db).call((c) => c.auth.requestPasswordReset({ email }));
    const token = await tokenMailed(email);
    const hash = await passwordHashOf(id);
    const weak = await trpcRefusal(new TestBrowser(db).call((c) => c.auth.resetPassword(newPassword("abc", token))));
    expect(weak.message).toBe(messages.auth.weakPassword);
    const mismatch = await trpcRefusal(new TestBrowser(db).call((c) => c.auth.resetPassword({ token, password: "new-braai-2026", confirmPassword: "other-2026" })));
    expect(mismatch.message).toBe(messages.auth.passwordsDoNotMatch);
    expect(await passwordHashOf(id)).toBe(hash);
    await new TestBrowser(db).call((c) => c.auth.resetPassword(newPassword("new-braai-2026", token)));
    expect(await signsIn(email, "new-braai-2026")).toBe(true);
  });

  it("an e-mail change link is not a reset link, nor the other way round", async () => {
    const { email, id, browser } = await newCustomer();
    const newEmail = `moved-${randomUUID().slice(0, 8)}@example.test`;
    await browser.call((c) => c.profile.changeEmail({ email: newEmail }));
    const changeToken = await tokenMailed(newEmail, "email_change_confirm");
    const hash = await passwordHashOf(id);
    const error = await trpcRefusal(new TestBrowser(db).call((c) => c.auth.resetPassword(newPassword("new-braai-2026", changeToken))));
    expect(error.message).toBe(a.resetLinkInvalid);
    expect(await passwordHashOf(id)).toBe(hash);

    await new TestBrowser(db).call((c) => c.auth.requestPasswordReset({ email }));
    const resetToken = await tokenMailed(email);
    const swapped = await trpcRefusal(browser.call((c) => c.auth.confirmEmailChange({ token: resetToken })));
    expect(swapped.message).toBe(a.emailChangeLinkInvalid);
  });

  it("limits requests per e-mail address, the same for an unknown one, and per client address", async () => {
    const { email } = await newCustomer();
    const limits = freshRequestLimits();
    for (let i = 0; i < PASSWORD_RESET_EMAIL_LIMIT.attempts; i++) {
      await new TestBrowser(db, { requestLimits: limits, address: `198.51.100.${i}` }).call((c) => c.auth.requestPasswordReset({ email }));
    }
    const mailsBefore = (await mailsTo(email)).length;
    const over = await trpcRefusal(new TestBrowser(db, { requestLimits: limits, address: "198.51.100.99" }).call((c) => c.auth.requestPasswordReset({ email })));
    expect({ code: over.code, message: over.message }).toEqual({ code: "TOO_MANY_REQUESTS", message: a.resetLimited });
    expect((await mailsTo(email)).length).toBe(mailsBefore);

    const unknown = `nobody-${randomUUID().slice(0, 8)}@example.test`;
    for (let i = 0; i < PASSWORD_RESET_EMAIL_LIMIT.attempts; i++) {
      await new TestBrowser(db, { requestLimits: limits, address: `198.51.101.${i}` }).call((c) => c.auth.requestPasswordReset({ email: unknown }));
    }
    const overUnknown = await trpcRefusal(new TestBrowser(db, { requestLimits: limits, address: "198.51.101.99" }).call((c) => c.auth.requestPasswordReset({ email: unknown })));
    expect(overUnknown.message).toBe(a.resetLimited);

    const byAddress = freshRequestLimits();
    const refusals = [];
    for (let i = 0; i < 11; i++) {
      const result = await new TestBrowser(db, { requestLimits: byAddress, address: "203.0.113.77" })
        .call((c) => c.auth.requestPasswordReset({ email: `someone-${i}-${randomUUID().slice(0, 6)}@example.test` }))
        .then(() => null, (error: unknown) => error);
      if (result) refusals.push(result);
    }
    expect(refusals).toHaveLength(1);
  });

  it("logs neither the token nor the password when something fails", async () => {
    const { email } = await newCustomer();
    await new TestBrowser(db).call((c) => c.auth.requestPasswordReset({ email }));
    const token = await tokenMailed(email);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      await trpcRefusal(new TestBrowser(db).call((c) => c.auth.resetPassword(newPassword("abc", token))));
      await trpcRefusal(new TestBrowser(db).call((c) => c.auth.resetPassword(newPassword("secret-pass-2026", "y".repeat(43)))));
      const output = JSON.stringify([...logged.mock.calls, ...warned.mock.calls]);
      expect(output).not.toContain(token);
      expect(output).not.toContain("secret-pass-2026");
    } finally {
      logged.mockRestore();
      warned.mockRestore();
    }
  });
});

describe("change password (profile)", () => {
  it("needs the current password, then ends every other session but this one", async () => {
    const { email, id, browser } = await newCustomer();
    const second = new TestBrowser(db);
    await second.call((c) => c.auth.signIn({ email, password: PASSWORD }));
    expect(await sessionCount(id)).toBe(2);

    const hash = await passwordHashOf(id);
    const wrong = await trpcRefusal(browser.call((c) => c.profile.changePassword({ currentPassword: "wrong-2026", password: "new-braai-2026", confirmPassword: "new-braai-2026" })));
    expect(wrong.message).toBe(a.currentPasswordWrong);
    const weak = await trpcRefusal(browser.call((c) => c.profile.changePassword({ currentPassword: PASSWORD, password: "abc", confirmPassword: "abc" })));
    expect(weak.message).toBe(messages.auth.weakPassword);
    const missing = await trpcRefusal(browser.call((c) => c.profile.changePassword({ currentPassword: "", password: "new-braai-2026", confirmPassword: "new-braai-2026" })));
    expect(missing.message).toBe(a.currentPasswordRequired);
    expect(await passwordHashOf(id)).toBe(hash);
    expect(await sessionCount(id)).toBe(2);

    const done = await browser.call((c) => c.profile.changePassword({ currentPassword: PASSWORD, password: "new-braai-2026", confirmPassword: "new-braai-2026" }));
    expect(done.message).toBe(a.passwordChanged);
    expect(await browser.call((c) => c.auth.session())).toMatchObject({ id });
    expect(await second.call((c) => c.auth.session())).toBeNull();
    expect(await signsIn(email, PASSWORD)).toBe(false);
    expect(await signsIn(email, "new-braai-2026")).toBe(true);
  });

  it("is for signed-in callers only", async () => {
    const error = await trpcRefusal(new TestBrowser(db).call((c) => c.profile.changePassword({ currentPassword: PASSWORD, password: "new-braai-2026", confirmPassword: "new-braai-2026" })));
    expect(error.code).toBe("UNAUTHORIZED");
  });
});

describe("change e-mail (profile)", () => {
  it("mails a link to the new address and tells the old one; the change happens when the link is used, once", async () => {
    const { email, id, browser } = await newCustomer();
    const newEmail = `moved-${randomUUID().slice(0, 8)}@example.test`;
    const asked = await browser.call((c) => c.profile.changeEmail({ email: newEmail }));
    expect(asked.message).toBe(a.emailChangeRequested(newEmail));
    // Nothing changes until the link is opened.
    expect(await browser.call((c) => c.auth.session())).toMatchObject({ email });
    expect((await mailsTo(email)).map((row) => row.template)).toContain("email_change_notice");
    const token = await tokenMailed(newEmail, "email_change_confirm");

    const done = await browser.call((c) => c.auth.confirmEmailChange({ token }));
    expect(done.message).toBe(a.emailChanged(newEmail));
    expect(await browser.call((c) => c.auth.session())).toMatchObject({ id, email: newEmail });
    const profile = await db.kysely.selectFrom("profiles").select("email").where("id", "=", id).executeTakeFirstOrThrow();
    expect(profile.email).toBe(newEmail);
    expect(await signsIn(newEmail, PASSWORD)).toBe(true);
    expect(await signsIn(email, PASSWORD)).toBe(false);

    const again = await trpcRefusal(browser.call((c) => c.auth.confirmEmailChange({ token })));
    expect(again.message).toBe(a.emailChangeLinkInvalid);
  });

  it("refuses another account's link, an expired link and an address in use, changing nothing", async () => {
    const owner = await newCustomer();
    const intruder = await newCustomer();
    const newEmail = `moved-${randomUUID().slice(0, 8)}@example.test`;
    await owner.browser.call((c) => c.profile.changeEmail({ email: newEmail }));
    const token = await tokenMailed(newEmail, "email_change_confirm");

    const foreign = await trpcRefusal(intruder.browser.call((c) => c.auth.confirmEmailChange({ token })));
    expect(foreign.message).toBe(a.emailChangeLinkInvalid);
    expect(await intruder.browser.call((c) => c.auth.session())).toMatchObject({ email: intruder.email });

    await db.kysely.updateTable("private.account_tokens").set({ expires_at: new Date(Date.now() - 1000) }).where("token_hash", "=", hashToken(token)).execute();
    const expired = await trpcRefusal(owner.browser.call((c) => c.auth.confirmEmailChange({ token })));
    expect(expired.message).toBe(a.emailChangeLinkInvalid);
    expect(await owner.browser.call((c) => c.auth.session())).toMatchObject({ email: owner.email });

    const taken = await trpcRefusal(owner.browser.call((c) => c.profile.changeEmail({ email: intruder.email })));
    expect(taken.message).toBe(messages.auth.emailInUse);
    const same = await trpcRefusal(owner.browser.call((c) => c.profile.changeEmail({ email: owner.email })));
    expect(same.message).toBe(a.emailUnchanged);
  });
});

describe("the admins' Outbox page", () => {
  it("shows an account mail without its link's token: the link is the account holder's alone", async () => {
    const { email } = await newCustomer();
    await new TestBrowser(db).call((c) => c.auth.requestPasswordReset({ email }));
    const token = await tokenMailed(email);
    const admin = await callerAs(db, await createUser(db, { role: "admin" }));
    const { mails } = await admin.mail.outbox();
    const reset = mails.find((mail) => mail.recipient === email && mail.template === "password_reset");
    expect(reset?.text).toContain("/auth/reset?token=REDACTED");
    expect(JSON.stringify(mails)).not.toContain(token);
  });
});

describe("the token table", () => {
  it("is out of every API role's reach", async () => {
    for (const role of ["anon", "authenticated"]) {
      const { rows } = await sql<{ usable: boolean }>`select has_table_privilege(${role}, 'private.account_tokens', 'select,insert,update,delete') as usable`.execute(db.kysely);
      expect(rows[0]!.usable).toBe(false);
    }
  });
});
