import { createHash, randomBytes, randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import { decodeJwt } from "jose";
import { sql, type Kysely, type Transaction } from "kysely";
import { accountMessages, messages } from "@/lib/messages";
import { ACCOUNT_LINK_TTL_MS, MIN_PASSWORD_LENGTH } from "@/lib/constants";
import type { DB } from "@/server/db/schema";
import { AuthError, type AuthPort } from "@/server/ports/auth";
import { sessionCookieOptions, type CookieJar } from "@/server/ports/cookies";
import { clientAddress, type SignInLimits } from "@/server/security/rate-limit";
import type { SessionCache } from "./session-cache";
import {
  needsRenewal,
  SESSION_COOKIE,
  SESSION_MAX_SECONDS,
  signSessionToken,
  verifySessionToken,
} from "./session-token";

const BCRYPT_COST = 10;
/** Compared against when the email is unknown, so a miss costs as long as a wrong password. */
const DUMMY_HASH = "$2b$10$Qr2A46bxrKblpU9TAOxV6u6SvanCkNTmQZ19paF3UUTWCbQ8sGGk2";
const OAUTH_COOKIE = "shop-oauth";

export interface GoogleClient {
  clientId: string;
  clientSecret: string;
}

export interface LocalAuthDeps {
  /** The privileged handle: the local adapter plays Supabase Auth's part, writing auth.*. */
  db: Kysely<DB>;
  cookies: CookieJar;
  requestHeaders: Headers;
  secret: Uint8Array;
  secureCookies: boolean;
  google?: GoogleClient;
  /** Failed sign-ins per email and per client address (kept in the database). */
  signInLimits: SignInLimits;
  /** Google's endpoints; replaced in tests. */
  fetch?: typeof fetch;
  /** The sessions this process checked lately (none: every request reads auth.sessions). */
  sessions?: SessionCache;
}

/** Local auth (docs/architecture.md#local-auth): auth.users with bcrypt, sessions as Supabase-shaped JWTs in a cookie. */
export function createLocalAuth(deps: LocalAuthDeps): AuthPort {
  const { db, cookies } = deps;

  async function startSession(user: { id: string; email: string | null; userMetadata: Record<string, unknown> }) {
    const sessionId = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const notAfter = now + SESSION_MAX_SECONDS;
    await db
      .insertInto("auth.sessions")
      .values({
        id: sessionId,
        user_id: user.id,
        not_after: new Date(notAfter * 1000),
        user_agent: deps.requestHeaders.get("user-agent")?.slice(0, 500) ?? null,
        ip: clientAddress(deps.requestHeaders),
      })
      .execute();
    await db.updateTable("auth.users").set({ last_sign_in_at: new Date() }).where("id", "=", user.id).execute();
    await writeToken({ ...user, sessionId, notAfter });
  }

  async function writeToken(session: { id: string; email: string | null; userMetadata: Record<string, unknown>; sessionId: string; notAfter: number }) {
    const { token, maxAge } = await signSessionToken(deps.secret, {
      userId: session.id,
      email: session.email,
      sessionId: session.sessionId,
      userMetadata: session.userMetadata,
      notAfter: session.notAfter,
    });
    cookies.set(SESSION_COOKIE, token, sessionCookieOptions(maxAge, deps.secureCookies));
  }

  function clearToken() {
    cookies.set(SESSION_COOKIE, "", sessionCookieOptions(0, deps.secureCookies));
  }

  async function findUserByEmail(email: string) {
    return db
      .selectFrom("auth.users")
      .select(["id", "email", "encrypted_password", "raw_user_meta_data"])
      .where(sql<string>`lower(email)`, "=", email.toLowerCase())
      .where("deleted_at", "is", null)
      .executeTakeFirst();
  }

  async function createUser(input: { email: string; passwordHash: string | null; fullName: string | null; provider: string }) {
    const id = randomUUID();
    const now = new Date();
    const userMetadata = input.fullName ? { full_name: input.fullName } : {};
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("auth.users")
        .values({
          id,
          aud: "authenticated",
          role: "authenticated",
          email: input.email,
          encrypted_password: input.passwordHash,
          email_confirmed_at: now,
          raw_app_meta_data: JSON.stringify({ provider: input.provider, providers: [input.provider] }),
          raw_user_meta_data: JSON.stringify(userMetadata),
          created_at: now,
          updated_at: now,
        })
        .execute();
      await trx
        .insertInto("auth.identities")
        .values({
          provider_id: id,
          user_id: id,
          identity_data: JSON.stringify({ sub: id, email: input.email, email_verified: true }),
          provider: input.provider,
          created_at: now,
          updated_at: now,
        })
        .execute();
    });
    return { id, email: input.email, userMetadata };
  }

  /** The signed-in session's claims, or null. */
  const currentClaims = () => verifySessionToken(deps.secret, cookies.get(SESSION_COOKIE));

  /**
   * A new single-use link's token: 32 random bytes for the mail, only its SHA-256 in the
   * database, written with its mail in one transaction. Earlier links of the same kind go.
   */
  async function issueToken(
    trx: Transaction<DB>,
    input: { kind: "password_reset" | "email_change"; userId: string; newEmail?: string },
  ): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await trx.deleteFrom("private.account_tokens").where("user_id", "=", input.userId).where("kind", "=", input.kind).execute();
    await trx
      .insertInto("private.account_tokens")
      .values({
        token_hash: hashToken(token),
        kind: input.kind,
        user_id: input.userId,
        new_email: input.newEmail ?? null,
        expires_at: new Date(Date.now() + ACCOUNT_LINK_TTL_MS),
      })
      .execute();
    return token;
  }

  /** Takes a link's token: the row, locked and marked used, if it is unused, unexpired and of `kind`; else null (nothing changes). */
  async function takeToken(trx: Transaction<DB>, token: string, kind: "password_reset" | "email_change") {
    const row = await trx
      .selectFrom("private.account_tokens")
      .select(["token_hash", "user_id", "new_email"])
      .where("token_hash", "=", hashToken(token))
      .where("kind", "=", kind)
      .where("used_at", "is", null)
      .where("expires_at", ">", new Date())
      .forUpdate()
      .executeTakeFirst();
    if (!row) return null;
    const taken = await trx
      .updateTable("private.account_tokens")
      .set({ used_at: new Date() })
      .where("token_hash", "=", row.token_hash)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return taken.numUpdatedRows === 1n ? row : null;
  }

  async function signedInAccount() {
    const claims = await currentClaims();
    if (!claims) return null;
    const user = await db
      .selectFrom("auth.sessions as s")
      .innerJoin("auth.users as u", "u.id", "s.user_id")
      .select(["u.id", "u.email", "u.encrypted_password", "u.raw_user_meta_data"])
      .where("s.id", "=", claims.session_id)
      .where("s.user_id", "=", claims.sub)
      .where("s.not_after", ">", new Date())
      .where("u.deleted_at", "is", null)
      .executeTakeFirst();
    return user ? { ...user, claims } : null;
  }

  function displayName(user: { email: string | null; raw_user_meta_data: unknown }): string {
    const name = (user.raw_user_meta_data as { full_name?: unknown } | null)?.full_name;
    return typeof name === "string" && name.trim() ? name.trim().slice(0, 255) : (user.email ?? "");
  }

  /** Ends every session of `userId` but `keep` (all of them when none), here and, through the table's trigger, in every process. */
  async function endSessions(executor: Kysely<DB> | Transaction<DB>, userId: string, keep?: string) {
    let query = executor.deleteFrom("auth.sessions").where("user_id", "=", userId);
    if (keep) query = query.where("id", "!=", keep);
    await query.execute();
  }

  return {
    provider: "local",

    async currentUser() {
      const claims = await verifySessionToken(deps.secret, cookies.get(SESSION_COOKIE));
      if (!claims) return null;
      let user = deps.sessions?.get(claims.session_id, claims.sub);
      if (!user) {
        const mark = deps.sessions?.mark() ?? 0;
        const session = await db
          .selectFrom("auth.sessions as s")
          .innerJoin("auth.users as u", "u.id", "s.user_id")
          .select(["u.id", "u.email", "u.raw_user_meta_data", "s.not_after"])
          .where("s.id", "=", claims.session_id)
          .where("s.user_id", "=", claims.sub)
          .where("s.not_after", ">", new Date())
          .where("u.deleted_at", "is", null)
          .executeTakeFirst();
        if (!session) return null;
        user = {
          id: session.id,
          email: session.email,
          userMetadata: (session.raw_user_meta_data ?? {}) as Record<string, unknown>,
        };
        deps.sessions?.set(claims.session_id, user, new Date(session.not_after), mark);
      }
      if (needsRenewal(claims)) {
        await writeToken({ ...user, sessionId: claims.session_id, notAfter: claims.not_after });
      }
      return user;
    },

    async signIn({ email, password }) {
      const emailKey = `email:${email.toLowerCase()}`;
      const addressKey = `address:${clientAddress(deps.requestHeaders)}`;
      const wait = Math.max(
        await deps.signInLimits.byEmail.retryAfter(db, emailKey),
        await deps.signInLimits.byAddress.retryAfter(db, addressKey),
      );
      if (wait > 0) throw new AuthError("rate_limited", messages.auth.tooManyAttempts(Math.ceil(wait / 60_000)));

      const user = await findUserByEmail(email);
      const matches = await bcrypt.compare(password, user?.encrypted_password ?? DUMMY_HASH);
      if (!user || !user.encrypted_password || !matches) {
        await deps.signInLimits.byEmail.take(db, emailKey);
        await deps.signInLimits.byAddress.take(db, addressKey);
        throw new AuthError("invalid_credentials", messages.auth.invalidCredentials);
      }
      await deps.signInLimits.byEmail.reset(db, emailKey);
      const signedIn = {
        id: user.id,
        email: user.email,
        userMetadata: (user.raw_user_meta_data ?? {}) as Record<string, unknown>,
      };
      await startSession(signedIn);
      return signedIn;
    },

    async signUp({ email, password, fullName }) {
      if (password.length < MIN_PASSWORD_LENGTH) throw new AuthError("weak_password", messages.auth.weakPassword);
      if (await findUserByEmail(email)) throw new AuthError("email_in_use", messages.auth.emailInUse);
      const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
      let user;
      try {
        user = await createUser({ email, passwordHash, fullName, provider: "email" });
      } catch (error) {
        // Two sign-ups racing for one address: the unique index decides.
        if (isUniqueViolation(error)) throw new AuthError("email_in_use", messages.auth.emailInUse);
        throw error;
      }
      await startSession(user);
      return { user, signedIn: true };
    },

    async resendConfirmation() {
      // Local accounts are usable at once: there is nothing to confirm.
    },

    async signOut() {
      const claims = await verifySessionToken(deps.secret, cookies.get(SESSION_COOKIE));
      if (claims) {
        await db.deleteFrom("auth.sessions").where("id", "=", claims.session_id).execute();
        // Other processes hear of it through the table's trigger; this one forgets it now.
        deps.sessions?.forgetSession(claims.session_id);
      }
      clearToken();
    },

    async googleSignInUrl({ origin, next }) {
      if (!deps.google) throw new AuthError("google_not_configured", messages.auth.googleNotConfigured);
      const state = randomBytes(24).toString("base64url");
      cookies.set(OAUTH_COOKIE, JSON.stringify({ state, next }), { ...sessionCookieOptions(600, deps.secureCookies) });
      const url = new URL("https://accounts.google.com/o/oauth2/v2/auth");
      url.search = new URLSearchParams({
        client_id: deps.google.clientId,
        redirect_uri: `${origin}/auth/callback`,
        response_type: "code",
        scope: "openid email profile",
        state,
        prompt: "select_account",
      }).toString();
      return url.toString();
    },

    pendingDestination: () => pendingOAuthNext(cookies),

    async completeOAuth({ origin, searchParams }) {
      if (!deps.google) throw new AuthError("google_not_configured", messages.auth.googleNotConfigured);
      const fail = () => new AuthError("oauth_failed", messages.auth.googleFailed);
      let expected: { state?: unknown } = {};
      try {
        expected = JSON.parse(cookies.get(OAUTH_COOKIE) ?? "{}") as { state?: unknown };
      } catch {
        throw fail();
      }
      cookies.set(OAUTH_COOKIE, "", sessionCookieOptions(0, deps.secureCookies));
      const code = searchParams.get("code");
      if (!code || typeof expected.state !== "string" || searchParams.get("state") !== expected.state) throw fail();

      const response = await (deps.fetch ?? fetch)("https://oauth2.googleapis.com/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          code,
          client_id: deps.google.clientId,
          client_secret: deps.google.clientSecret,
          redirect_uri: `${origin}/auth/callback`,
          grant_type: "authorization_code",
        }),
      }).catch(() => undefined);
      if (!response?.ok) throw fail();
      const body = (await response.json()) as { id_token?: string };
      if (!body.id_token) throw fail();
      // Received straight from Google's token endpoint over TLS, so its claims need no signature check.
      const claims = decodeJwt(body.id_token);
      const email = typeof claims.email === "string" ? claims.email.toLowerCase() : undefined;
      const issuerOk = claims.iss === "https://accounts.google.com" || claims.iss === "accounts.google.com";
      if (!email || claims.aud !== deps.google.clientId || !issuerOk || claims.email_verified !== true) throw fail();

      const existing = await findUserByEmail(email);
      const user = existing
        ? { id: existing.id, email: existing.email, userMetadata: (existing.raw_user_meta_data ?? {}) as Record<string, unknown> }
        : await createUser({
            email,
            passwordHash: null,
            fullName: typeof claims.name === "string" ? claims.name.slice(0, 100) : null,
            provider: "google",
          });
      await startSession(user);
      return user;
    },

    async requestPasswordReset({ email }) {
      const user = await findUserByEmail(email);
      if (!user?.email) return;
      const to = user.email;
      await db.transaction().execute(async (trx) => {
        const token = await issueToken(trx, { kind: "password_reset", userId: user.id });
        await sql`select private.enqueue_mail(${to}, 'password_reset', ${JSON.stringify({ customerName: displayName(user), token })}::jsonb)`.execute(trx);
      });
    },

    async resetPassword({ token, password }) {
      const invalid = () => new AuthError("invalid_link", accountMessages.resetLinkInvalid);
      if (!token) throw invalid();
      if (password.length < MIN_PASSWORD_LENGTH) throw new AuthError("weak_password", messages.auth.weakPassword);
      const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
      const user = await db.transaction().execute(async (trx) => {
        const taken = await takeToken(trx, token, "password_reset");
        if (!taken) return null;
        const updated = await trx
          .updateTable("auth.users")
          .set({ encrypted_password: passwordHash, updated_at: new Date() })
          .where("id", "=", taken.user_id)
          .where("deleted_at", "is", null)
          .returning(["id", "email", "raw_user_meta_data"])
          .executeTakeFirst();
        if (!updated) return null;
        // Whoever else holds a session of this account (perhaps whoever knew the old password) is out.
        await endSessions(trx, updated.id);
        return updated;
      });
      if (!user) throw invalid();
      deps.sessions?.forgetUser(user.id);
      // Failed sign-ins of the forgotten password no longer lock the owner out.
      if (user.email) await deps.signInLimits.byEmail.reset(db, `email:${user.email.toLowerCase()}`);
      const signedIn = { id: user.id, email: user.email, userMetadata: (user.raw_user_meta_data ?? {}) as Record<string, unknown> };
      await startSession(signedIn);
      return signedIn;
    },

    async changePassword({ currentPassword, newPassword }) {
      const account = await signedInAccount();
      if (!account) throw new AuthError("invalid_credentials", messages.auth.signInRequired);
      if (!account.encrypted_password) throw new AuthError("wrong_current_password", accountMessages.noPasswordYet);
      if (!(await bcrypt.compare(currentPassword, account.encrypted_password))) {
        throw new AuthError("wrong_current_password", accountMessages.currentPasswordWrong);
      }
      if (newPassword.length < MIN_PASSWORD_LENGTH) throw new AuthError("weak_password", messages.auth.weakPassword);
      const passwordHash = await bcrypt.hash(newPassword, BCRYPT_COST);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable("auth.users").set({ encrypted_password: passwordHash, updated_at: new Date() }).where("id", "=", account.id).execute();
        await endSessions(trx, account.id, account.claims.session_id);
        // A reset link asked for earlier would undo this change: it goes.
        await trx.deleteFrom("private.account_tokens").where("user_id", "=", account.id).where("kind", "=", "password_reset").execute();
      });
      deps.sessions?.forgetUser(account.id);
    },

    async requestEmailChange({ newEmail }) {
      const account = await signedInAccount();
      if (!account) throw new AuthError("invalid_credentials", messages.auth.signInRequired);
      if (account.email?.toLowerCase() === newEmail.toLowerCase()) throw new AuthError("email_in_use", accountMessages.emailUnchanged);
      if (await findUserByEmail(newEmail)) throw new AuthError("email_in_use", messages.auth.emailInUse);
      const name = displayName(account);
      await db.transaction().execute(async (trx) => {
        const token = await issueToken(trx, { kind: "email_change", userId: account.id, newEmail });
        await sql`select private.enqueue_mail(${newEmail}, 'email_change_confirm', ${JSON.stringify({ customerName: name, newEmail, token })}::jsonb)`.execute(trx);
        if (account.email) {
          await sql`select private.enqueue_mail(${account.email}, 'email_change_notice', ${JSON.stringify({ customerName: name, newEmail })}::jsonb)`.execute(trx);
        }
      });
    },

    async confirmEmailChange({ token }) {
      const invalid = () => new AuthError("invalid_link", accountMessages.emailChangeLinkInvalid);
      const claims = await currentClaims();
      let user;
      try {
        user = await db.transaction().execute(async (trx) => {
          const taken = await takeToken(trx, token, "email_change");
          if (!taken?.new_email) return null;
          // Opened in a browser signed in to another account: refused, and the link stays unused.
          if (claims && claims.sub !== taken.user_id) throw invalid();
          return trx
            .updateTable("auth.users")
            .set({ email: taken.new_email, email_confirmed_at: new Date(), updated_at: new Date() })
            .where("id", "=", taken.user_id)
            .where("deleted_at", "is", null)
            .returning(["id", "email", "raw_user_meta_data"])
            .executeTakeFirst();
        });
      } catch (error) {
        // The new address was taken by another account since the link was sent.
        if (isUniqueViolation(error)) throw new AuthError("email_in_use", messages.auth.emailInUse);
        throw error;
      }
      if (!user) throw invalid();
      deps.sessions?.forgetUser(user.id);
      const changed = { id: user.id, email: user.email, userMetadata: (user.raw_user_meta_data ?? {}) as Record<string, unknown> };
      // The signed-in browser's token carries the address: written again with the new one.
      if (claims?.sub === user.id) await writeToken({ ...changed, sessionId: claims.session_id, notAfter: claims.not_after });
      return changed;
    },

    async deleteUser(userId) {
      await db.deleteFrom("auth.users").where("id", "=", userId).execute();
      deps.sessions?.forgetUser(userId);
      clearToken();
    },
  };
}

/** What the database keeps of a link's token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { code?: unknown }).code === "23505";
}

/** The `next` path saved when a local Google sign-in started. */
export function pendingOAuthNext(cookies: CookieJar): string | undefined {
  try {
    const saved = JSON.parse(cookies.get(OAUTH_COOKIE) ?? "{}") as { next?: unknown };
    return typeof saved.next === "string" ? saved.next : undefined;
  } catch {
    return undefined;
  }
}
