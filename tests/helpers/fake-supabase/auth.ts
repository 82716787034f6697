import { createHash, randomBytes, randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import type pg from "pg";
import { json, redirect, type FakeRequest, type FakeResponse } from "./http";
import { bearer, signJwt, verifyJwt, type JwtKeys, type SupabaseClaims } from "./jwt";

/**
 * Supabase Auth (GoTrue v2) as the shop and supabase-js use it, answering with GoTrue's shapes:
 * users and identities in the database's `auth` schema (so the migrations' sign-up trigger
 * creates the profile), sessions, refresh tokens and PKCE flow states in memory (the shop never
 * reads them from SQL).
 */

export interface AuthConfig {
  /** `[auth] site_url`: where a confirmation link lands when its redirect is not allowed. */
  siteUrl: string;
  /** `[auth] additional_redirect_urls`, with `*` and `**` as GoTrue's globs. */
  additionalRedirectUrls: string[];
  /** `[auth.email] enable_confirmations = false`: sign-up answers a session at once. */
  mailerAutoconfirm: boolean;
  /** `[auth.email] max_frequency`: one recovery (or e-mail change) mail per address this often (GoTrue's default 60 s). */
  maxFrequencyMs?: number;
  jwtExpiry: number;
  minimumPasswordLength: number;
}

/** A mail Auth would have sent (what Inbucket shows on a local stack). */
export interface SentMail {
  to: string;
  type: "signup" | "recovery" | "email_change";
  link: string;
  sentAt: string;
}

interface Session {
  id: string;
  userId: string;
  refreshToken: string;
  /** Rotated-out refresh tokens and when, for GoTrue's reuse interval. */
  rotated: Map<string, number>;
  amr: { method: string; timestamp: number }[];
}

interface FlowState {
  authCode: string;
  codeChallenge: string;
  method: "s256" | "plain";
  userId: string;
  authenticationMethod: string;
  authCodeIssuedAt?: number;
}

interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  confirmed_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  banned_until: Date | null;
  is_anonymous: boolean;
  phone: string | null;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_sent_at, confirmed_at,
  last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, banned_until, is_anonymous, phone`;

/** GoTrue's reuse interval: a rotated refresh token still works this long (parallel requests). */
const REFRESH_REUSE_MS = 10_000;
/** GoTrue's flow-state expiry, counted from when the auth code was issued. */
const FLOW_STATE_MS = 300_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

class AuthHttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : undefined);

/** GoTrue's matcher for allowed redirect URLs: `*` within a path segment or host label, `**` across. */
function globToRegExp(glob: string): RegExp {
  let pattern = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "*" && glob[i + 1] === "*") {
      pattern += ".*";
      i++;
    } else if (char === "*") pattern += "[^/.]*";
    else pattern += char.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${pattern}$`);
}

export interface FakeAuth {
  handle(request: FakeRequest): Promise<FakeResponse>;
  config: AuthConfig;
  mails: SentMail[];
  /** Ends every session (what a Supabase restart with a new JWT secret would do, or a test's reset). */
  endAllSessions(): void;
}

export function createFakeAuth(options: { pool: pg.Pool; keys: JwtKeys; externalUrl: string; config: AuthConfig }): FakeAuth {
  const { pool, keys, config } = options;
  const authUrl = `${options.externalUrl}/auth/v1`;
  const sessions = new Map<string, Session>();
  const sessionByRefreshToken = new Map<string, string>();
  const flowStates = new Map<string, FlowState>();
  /** confirmation token → the user it confirms (GoTrue keeps it hashed in auth.users). */
  const confirmationTokens = new Map<string, { userId: string; flowAuthCode?: string }>();
  /** recovery token → its user (GoTrue: auth.users.recovery_token, one at a time, expiring with the mailer OTP). */
  const recoveryTokens = new Map<string, { userId: string; flowAuthCode?: string; sentAt: number }>();
  /** e-mail change token (sent to the new address) → the user and the address (auth.users.email_change_token_new, email_change). */
  const emailChangeTokens = new Map<string, { userId: string; newEmail: string; flowAuthCode?: string; sentAt: number }>();
  /** When each address was last sent a recovery or e-mail change mail (max_frequency). */
  const lastSent = new Map<string, number>();
  /** GoTrue's mailer OTP expiry (`[auth.email] otp_expiry`, 3600 s by default). */
  const OTP_EXPIRY_MS = 3_600_000;
  const mails: SentMail[] = [];

  const sendError = (request: FakeRequest, error: AuthHttpError): FakeResponse => {
    // GoTrue answers in the 2024-01-01 shape only to clients that ask for it (supabase-js does).
    const version = request.headers["x-supabase-api-version"];
    if (typeof version === "string" && version >= "2024-01-01") {
      return json(error.status, { code: error.errorCode, message: error.message, ...error.extra }, { "x-supabase-api-version": "2024-01-01" });
    }
    return json(error.status, { code: error.status, error_code: error.errorCode, msg: error.message, ...error.extra });
  };

  async function findUserBy(column: "id" | "email", value: string): Promise<UserRow | undefined> {
    const where = column === "id" ? "id = $1::uuid" : "lower(email) = lower($1) and is_sso_user = false";
    const { rows } = await pool.query<UserRow>(`select ${USER_COLUMNS} from auth.users where ${where} and deleted_at is null`, [value]);
    return rows[0];
  }

  async function userJson(user: UserRow) {
    const { rows } = await pool.query<IdentityRow>(
      `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
       from auth.identities where user_id = $1 order by created_at`,
      [user.id],
    );
    return {
      id: user.id,
      aud: user.aud ?? "authenticated",
      role: user.role ?? "authenticated",
      email: user.email ?? "",
      email_confirmed_at: iso(user.email_confirmed_at),
      phone: user.phone ?? "",
      confirmation_sent_at: iso(user.confirmation_sent_at),
      confirmed_at: iso(user.confirmed_at),
      last_sign_in_at: iso(user.last_sign_in_at),
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      identities: rows.map((identity) => ({
        identity_id: identity.id,
        id: identity.provider_id,
        user_id: identity.user_id,
        identity_data: identity.identity_data,
        provider: identity.provider,
        last_sign_in_at: iso(identity.last_sign_in_at),
        created_at: iso(identity.created_at),
        updated_at: iso(identity.updated_at),
        email: identity.email ?? undefined,
      })),
      created_at: iso(user.created_at),
      updated_at: iso(user.updated_at),
      is_anonymous: user.is_anonymous,
    };
  }

  function newRefreshToken(session: Session): string {
    const token = randomBytes(9).toString("base64url").toLowerCase().slice(0, 12);
    session.refreshToken = token;
    sessionByRefreshToken.set(token, session.id);
    return token;
  }

  async function sessionResponse(user: UserRow, session: Session) {
    const now = Math.floor(Date.now() / 1000);
    const claims: SupabaseClaims = {
      iss: authUrl,
      sub: user.id,
      aud: user.aud ?? "authenticated",
      email: user.email ?? "",
      phone: user.phone ?? "",
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: user.role ?? "authenticated",
      aal: "aal1",
      amr: session.amr,
      session_id: session.id,
      is_anonymous: user.is_anonymous,
    };
    const accessToken = await signJwt(keys.secret, claims, config.jwtExpiry);
    return {
      access_token: accessToken,
      token_type: "bearer",
      expires_in: config.jwtExpiry,
      expires_at: now + config.jwtExpiry,
      refresh_token: session.refreshToken,
      user: await userJson(user),
    };
  }

  async function startSession(user: UserRow, method: string) {
    await pool.query("update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1", [user.id]);
    await pool.query("update auth.identities set last_sign_in_at = now(), updated_at = now() where user_id = $1 and provider = 'email'", [user.id]);
    const signedIn = (await findUserBy("id", user.id)) ?? user;
    const session: Session = { id: randomUUID(), userId: user.id, refreshToken: "", rotated: new Map(), amr: [{ method, timestamp: Math.floor(Date.now() / 1000) }] };
    sessions.set(session.id, session);
    newRefreshToken(session);
    return sessionResponse(signedIn, session);
  }

  function endSession(session: Session) {
    sessions.delete(session.id);
    sessionByRefreshToken.delete(session.refreshToken);
    for (const token of session.rotated.keys()) sessionByRefreshToken.delete(token);
  }

  function allowedRedirect(redirectTo: string | null): string {
    if (!redirectTo) return config.siteUrl;
    try {
      const target = new URL(redirectTo);
      // GoTrue lets any URL on the Site URL's host through (any port), then the allow list's globs.
      if (target.hostname === new URL(config.siteUrl).hostname) return redirectTo;
      if (config.additionalRedirectUrls.some((glob) => globToRegExp(glob).test(redirectTo))) return redirectTo;
    } catch {
      // Not a URL: the Site URL, as GoTrue does.
    }
    return config.siteUrl;
  }

  /** The caller of a user endpoint: a valid access token whose user and session still exist. */
  async function caller(request: FakeRequest): Promise<{ claims: SupabaseClaims; user: UserRow; session?: Session }> {
    const token = bearer(request.headers.authorization);
    if (!token) throw new AuthHttpError(401, "no_authorization", "This endpoint requires a valid Bearer token");
    const claims = await verifyJwt(keys.secret, token);
    if (!claims) throw new AuthHttpError(403, "bad_jwt", "invalid JWT: unable to parse or verify signature, token is malformed");
    if (typeof claims.sub !== "string") throw new AuthHttpError(403, "bad_jwt", "invalid claim: missing sub claim");
    const user = await findUserBy("id", claims.sub);
    if (!user) throw new AuthHttpError(403, "user_not_found", "User from sub claim in JWT does not exist");
    let session: Session | undefined;
    if (claims.session_id) {
      session = sessions.get(claims.session_id);
      if (!session) throw new AuthHttpError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
    }
    return { claims, user, session };
  }

  async function requireServiceRole(request: FakeRequest) {
    const claims = await verifyJwt(keys.secret, bearer(request.headers.authorization) ?? "");
    if (!claims) throw new AuthHttpError(401, "bad_jwt", "invalid JWT: unable to parse or verify signature, token is malformed");
    if (claims.role !== "service_role" && claims.role !== "supabase_admin") throw new AuthHttpError(403, "not_admin", "User not allowed");
  }

  function flowStateFrom(body: Record<string, unknown>, userId: string, authenticationMethod: string): FlowState | undefined {
    const challenge = body.code_challenge;
    if (typeof challenge !== "string" || !challenge) return undefined;
    const method = String(body.code_challenge_method ?? "").toLowerCase();
    if (method !== "s256" && method !== "plain") throw new AuthHttpError(400, "validation_failed", "Code challenge method must be one of s256 or plain");
    const flow: FlowState = { authCode: randomUUID(), codeChallenge: challenge, method, userId, authenticationMethod };
    flowStates.set(flow.authCode, flow);
    return flow;
  }

  async function sendConfirmation(user: UserRow, redirectTo: string, flow: FlowState | undefined) {
    const hash = createHash("sha224").update(`${user.email}${randomBytes(16).toString("hex")}`).digest("hex");
    const token = flow ? `pkce_${hash}` : hash;
    await pool.query("update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now() where id = $1", [user.id, token]);
    confirmationTokens.set(token, { userId: user.id, flowAuthCode: flow?.authCode });
    const link = `${authUrl}/verify?token=${token}&type=signup&redirect_to=${encodeURIComponent(redirectTo)}`;
    mails.push({ to: user.email ?? "", type: "signup", link, sentAt: new Date().toISOString() });
  }

  /** GoTrue's max_frequency for mails to one address: 429 over_email_send_rate_limit. */
  function checkFrequency(address: string) {
    const wait = (config.maxFrequencyMs ?? 60_000) - (Date.now() - (lastSent.get(address) ?? 0));
    if (wait > 0) {
      throw new AuthHttpError(429, "over_email_send_rate_limit", `For security purposes, you can only request this after ${Math.ceil(wait / 1000)} seconds.`);
    }
    lastSent.set(address, Date.now());
  }

  function linkToken(seed: string, flow: FlowState | undefined): string {
    const hash = createHash("sha224").update(`${seed}${randomBytes(16).toString("hex")}`).digest("hex");
    return flow ? `pkce_${hash}` : hash;
  }

  /** POST /recover: GoTrue answers 200 {} whether or not the address has an account. */
  async function recover(request: FakeRequest): Promise<FakeResponse> {
    const body = await request.json();
    const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
    if (!email) throw new AuthHttpError(422, "validation_failed", "Password recovery requires an email");
    if (!EMAIL.test(email)) throw new AuthHttpError(400, "validation_failed", "Unable to validate email address: invalid format");
    const user = await findUserBy("email", email);
    if (!user) return json(200, {});
    checkFrequency(email);
    const flow = flowStateFrom(body, user.id, "recovery");
    const token = linkToken(email, flow);
    // One recovery token at a time: a new request replaces the last.
    for (const [old, pending] of recoveryTokens) if (pending.userId === user.id) recoveryTokens.delete(old);
    recoveryTokens.set(token, { userId: user.id, flowAuthCode: flow?.authCode, sentAt: Date.now() });
    await pool.query("update auth.users set recovery_token = $2, recovery_sent_at = now(), updated_at = now() where id = $1", [user.id, token]);
    const redirectTo = allowedRedirect(request.url.searchParams.get("redirect_to"));
    const link = `${authUrl}/verify?token=${token}&type=recovery&redirect_to=${encodeURIComponent(redirectTo)}`;
    mails.push({ to: email, type: "recovery", link, sentAt: new Date().toISOString() });
    return json(200, {});
  }

  /** PUT /user: the signed-in user's password, e-mail (a confirmation link to the new address) or metadata. */
  async function updateUser(request: FakeRequest): Promise<FakeResponse> {
    const { user } = await caller(request);
    const body = await request.json();
    if (typeof body.password === "string") {
      const password = body.password;
      if (password.length < config.minimumPasswordLength) {
        throw new AuthHttpError(422, "weak_password", `Password should be at least ${config.minimumPasswordLength} characters.`, { weak_password: { reasons: ["length"] } });
      }
      if (user.encrypted_password && (await bcrypt.compare(password, user.encrypted_password))) {
        throw new AuthHttpError(422, "same_password", "New password should be different from the old password.");
      }
      await pool.query("update auth.users set encrypted_password = $2, updated_at = now() where id = $1", [user.id, await bcrypt.hash(password, 10)]);
    }
    if (body.data && typeof body.data === "object") {
      await pool.query("update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb, updated_at = now() where id = $1", [user.id, body.data]);
    }
    if (typeof body.email === "string") {
      const newEmail = body.email.trim().toLowerCase();
      if (!EMAIL.test(newEmail)) throw new AuthHttpError(400, "validation_failed", "Unable to validate email address: invalid format");
      if (newEmail !== user.email?.toLowerCase()) {
        if (await findUserBy("email", newEmail)) throw new AuthHttpError(422, "email_exists", "A user with this email address has already been registered");
        checkFrequency(newEmail);
        const flow = flowStateFrom(body, user.id, "email_change");
        const token = linkToken(newEmail, flow);
        for (const [old, pending] of emailChangeTokens) if (pending.userId === user.id) emailChangeTokens.delete(old);
        emailChangeTokens.set(token, { userId: user.id, newEmail, flowAuthCode: flow?.authCode, sentAt: Date.now() });
        // Secure e-mail change off (config.toml): one link, to the new address.
        await pool.query("update auth.users set email_change = $2, email_change_token_new = $3, email_change_sent_at = now(), updated_at = now() where id = $1", [user.id, newEmail, token]);
        const redirectTo = allowedRedirect(request.url.searchParams.get("redirect_to"));
        const link = `${authUrl}/verify?token=${token}&type=email_change&redirect_to=${encodeURIComponent(redirectTo)}`;
        mails.push({ to: newEmail, type: "email_change", link, sentAt: new Date().toISOString() });
      }
    }
    const updated = (await findUserBy("id", user.id))!;
    const answer = await userJson(updated);
    const pendingChange = [...emailChangeTokens.values()].find((pending) => pending.userId === user.id);
    return json(200, pendingChange ? { ...answer, new_email: pendingChange.newEmail, email_change_sent_at: new Date(pendingChange.sentAt).toISOString() } : answer);
  }

  async function signUp(request: FakeRequest): Promise<FakeResponse> {
    const body = await request.json();
    const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
    const password = typeof body.password === "string" ? body.password : "";
    const data = body.data && typeof body.data === "object" ? (body.data as Record<string, unknown>) : {};
    if (!EMAIL.test(email)) throw new AuthHttpError(400, "validation_failed", "Unable to validate email address: invalid format");
    if (password.length < config.minimumPasswordLength) {
      throw new AuthHttpError(422, "weak_password", `Password should be at least ${config.minimumPasswordLength} characters.`, { weak_password: { reasons: ["length"] } });
    }
    const redirectTo = allowedRedirect(request.url.searchParams.get("redirect_to"));
    const existing = await findUserBy("email", email);
    if (existing) {
      if (config.mailerAutoconfirm || existing.email_confirmed_at) {
        if (config.mailerAutoconfirm) throw new AuthHttpError(422, "user_already_exists", "User already registered");
        // With confirmations on, GoTrue does not say the address is taken: a user with no identities.
        return json(200, { ...(await userJson(existing)), identities: [], id: randomUUID() });
      }
      await sendConfirmation(existing, redirectTo, flowStateFrom(body, existing.id, "email/signup"));
      return json(200, await userJson(existing));
    }

    const id = randomUUID();
    const userMetadata = { ...data, sub: id, email, email_verified: config.mailerAutoconfirm, phone_verified: false };
    const client = await pool.connect();
    try {
      await client.query("begin");
      // As Supabase Auth writes a user: token columns '' (never NULL), bcrypt hash, email identity.
      await client.query(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
           confirmation_token, recovery_token, email_change_token_new, email_change,
           raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous)
         values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3, $4,
           '', '', '', '', $5, $6, now(), now(), false, false)`,
        [id, email, await bcrypt.hash(password, 10), config.mailerAutoconfirm ? new Date() : null, { provider: "email", providers: ["email"] }, userMetadata],
      );
      await client.query(
        `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
         values ($1, $2, $3, 'email', now(), now(), now())`,
        [id, id, { sub: id, email, email_verified: false, phone_verified: false }],
      );
      await client.query("commit");
    } catch (error) {
      await client.query("rollback");
      throw error;
    } finally {
      client.release();
    }
    const user = (await findUserBy("id", id))!;
    if (config.mailerAutoconfirm) return json(200, await startSession(user, "password"));
    await sendConfirmation(user, redirectTo, flowStateFrom(body, id, "email/signup"));
    return json(200, await userJson((await findUserBy("id", id))!));
  }

  async function passwordGrant(request: FakeRequest): Promise<FakeResponse> {
    const body = await request.json();
    const email = typeof body.email === "string" ? body.email : "";
    const password = typeof body.password === "string" ? body.password : "";
    const user = email ? await findUserBy("email", email) : undefined;
    if (!user?.encrypted_password || !(await bcrypt.compare(password, user.encrypted_password))) {
      throw new AuthHttpError(400, "invalid_credentials", "Invalid login credentials");
    }
    if (user.banned_until && user.banned_until > new Date()) throw new AuthHttpError(400, "user_banned", "User is banned");
    if (!user.email_confirmed_at) throw new AuthHttpError(400, "email_not_confirmed", "Email not confirmed");
    return json(200, await startSession(user, "password"));
  }

  async function refreshGrant(request: FakeRequest): Promise<FakeResponse> {
    const body = await request.json();
    const token = typeof body.refresh_token === "string" ? body.refresh_token : "";
    const session = sessions.get(sessionByRefreshToken.get(token) ?? "");
    if (!session) throw new AuthHttpError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    const user = await findUserBy("id", session.userId);
    if (!user) throw new AuthHttpError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    if (token !== session.refreshToken) {
      const rotatedAt = session.rotated.get(token) ?? 0;
      if (Date.now() - rotatedAt > REFRESH_REUSE_MS) {
        // Reuse outside the interval: GoTrue revokes the whole session.
        endSession(session);
        throw new AuthHttpError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
      }
      // Within the interval (parallel requests refreshing at once): the session's current token.
      return json(200, await sessionResponse(user, session));
    }
    session.rotated.set(token, Date.now());
    newRefreshToken(session);
    return json(200, await sessionResponse(user, session));
  }

  async function pkceGrant(request: FakeRequest): Promise<FakeResponse> {
    const body = await request.json();
    const authCode = typeof body.auth_code === "string" ? body.auth_code : "";
    const verifier = typeof body.code_verifier === "string" ? body.code_verifier : "";
    if (!authCode || !verifier) throw new AuthHttpError(400, "validation_failed", "invalid request: both auth code and code verifier should be non-empty");
    const flow = flowStates.get(authCode);
    if (!flow?.authCodeIssuedAt) throw new AuthHttpError(404, "flow_state_not_found", "invalid flow state, no valid flow state found");
    if (Date.now() - flow.authCodeIssuedAt > FLOW_STATE_MS) {
      flowStates.delete(authCode);
      throw new AuthHttpError(422, "flow_state_expired", "invalid flow state, flow state has expired");
    }
    const expected = flow.method === "s256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
    if (expected !== flow.codeChallenge) throw new AuthHttpError(403, "bad_code_verifier", "code challenge does not match previously saved code verifier");
    flowStates.delete(authCode);
    const user = await findUserBy("id", flow.userId);
    if (!user) throw new AuthHttpError(404, "user_not_found", "User not found");
    return json(200, await startSession(user, flow.authenticationMethod));
  }

  /** As GoTrue's prepErrorRedirectURL: the error in the fragment (with `sb`), and for a PKCE link also in the query, next to the redirect's own parameters. */
  function expiredLink(token: string, redirectTo: string): FakeResponse {
    const error = { error: "access_denied", error_code: "otp_expired", error_description: "Email link is invalid or has expired" };
    const target = new URL(redirectTo);
    if (token.startsWith("pkce_")) for (const [key, value] of Object.entries(error)) target.searchParams.set(key, value);
    target.hash = new URLSearchParams({ ...error, sb: "" }).toString();
    return redirect(target.toString());
  }

  /** GET /verify for a recovery or e-mail change link: used once, within the OTP expiry; PKCE: back with a code. */
  async function verifyAccountLink(token: string, type: "recovery" | "email_change", redirectTo: string): Promise<FakeResponse> {
    const pending: { userId: string; flowAuthCode?: string; sentAt: number; newEmail?: string } | undefined =
      type === "recovery" ? recoveryTokens.get(token) : emailChangeTokens.get(token);
    const user = pending ? await findUserBy("id", pending.userId) : undefined;
    if (!pending || !user || Date.now() - pending.sentAt > OTP_EXPIRY_MS) return expiredLink(token, redirectTo);
    if (type === "recovery") {
      recoveryTokens.delete(token);
      await pool.query("update auth.users set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = $1", [user.id]);
    } else {
      emailChangeTokens.delete(token);
      const newEmail = pending.newEmail ?? "";
      if (!newEmail || (await findUserBy("email", newEmail))) return expiredLink(token, redirectTo);
      await pool.query(
        "update auth.users set email = $2, email_change = '', email_change_token_new = '', email_confirmed_at = now(), updated_at = now() where id = $1",
        [user.id, newEmail],
      );
      await pool.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now() where user_id = $1 and provider = 'email'`,
        [user.id, newEmail],
      );
    }
    const flow = pending.flowAuthCode ? flowStates.get(pending.flowAuthCode) : undefined;
    if (flow) {
      flow.authCodeIssuedAt = Date.now();
      const target = new URL(redirectTo);
      target.searchParams.set("code", flow.authCode);
      return redirect(target.toString());
    }
    const session = await startSession((await findUserBy("id", user.id))!, type === "recovery" ? "recovery" : "email_change");
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: "bearer",
      type,
    });
    return redirect(`${redirectTo}#${fragment}`);
  }

  async function verify(request: FakeRequest): Promise<FakeResponse> {
    const token = request.url.searchParams.get("token") ?? "";
    const type = request.url.searchParams.get("type");
    const redirectTo = allowedRedirect(request.url.searchParams.get("redirect_to"));
    if (type === "recovery" || type === "email_change") return verifyAccountLink(token, type, redirectTo);
    const pending = type === "signup" ? confirmationTokens.get(token) : undefined;
    const user = pending ? await findUserBy("id", pending.userId) : undefined;
    if (!pending || !user) return expiredLink(token, redirectTo);
    confirmationTokens.delete(token);
    await pool.query(
      "update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '', updated_at = now() where id = $1",
      [user.id],
    );
    await pool.query(
      `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now() where user_id = $1 and provider = 'email'`,
      [user.id],
    );
    await pool.query(`update auth.users set raw_user_meta_data = raw_user_meta_data || '{"email_verified": true}'::jsonb where id = $1`, [user.id]);
    const flow = pending.flowAuthCode ? flowStates.get(pending.flowAuthCode) : undefined;
    if (flow) {
      // PKCE: the browser comes back with a code the app exchanges with its own verifier.
      flow.authCodeIssuedAt = Date.now();
      const target = new URL(redirectTo);
      target.searchParams.set("code", flow.authCode);
      return redirect(target.toString());
    }
    const session = await startSession((await findUserBy("id", user.id))!, "otp");
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: "bearer",
      type: "signup",
    });
    return redirect(`${redirectTo}#${fragment}`);
  }

  async function resend(request: FakeRequest): Promise<FakeResponse> {
    const body = await request.json();
    const email = typeof body.email === "string" ? body.email : "";
    if (body.type !== "signup") throw new AuthHttpError(400, "validation_failed", "Missing one of these types: signup, email_change, sms, phone_change");
    const user = email ? await findUserBy("email", email) : undefined;
    // GoTrue says nothing about whether the address has an account, or is confirmed already.
    if (user && !user.email_confirmed_at) {
      await sendConfirmation(user, allowedRedirect(request.url.searchParams.get("redirect_to")), flowStateFrom(body, user.id, "email/signup"));
    }
    return json(200, {});
  }

  async function logout(request: FakeRequest): Promise<FakeResponse> {
    const { user, session } = await caller(request);
    const scope = request.url.searchParams.get("scope") ?? "global";
    for (const other of [...sessions.values()]) {
      if (other.userId !== user.id) continue;
      const isThis = other.id === session?.id;
      if (scope === "global" || (scope === "local" && isThis) || (scope === "others" && !isThis)) endSession(other);
    }
    return { status: 204 };
  }

  async function getUser(request: FakeRequest, id: string): Promise<FakeResponse> {
    await requireServiceRole(request);
    const user = /^[0-9a-f-]{36}$/i.test(id) ? await findUserBy("id", id) : undefined;
    if (!user) throw new AuthHttpError(404, "user_not_found", "User not found");
    return json(200, await userJson(user));
  }

  async function deleteUser(request: FakeRequest, id: string): Promise<FakeResponse> {
    await requireServiceRole(request);
    const user = /^[0-9a-f-]{36}$/i.test(id) ? await findUserBy("id", id) : undefined;
    if (!user) throw new AuthHttpError(404, "user_not_found", "User not found");
    await pool.query("delete from auth.users where id = $1", [id]);
    for (const session of [...sessions.values()]) if (session.userId === id) endSession(session);
    return json(200, {});
  }

  async function route(request: FakeRequest): Promise<FakeResponse> {
    const { method, path } = request;
    const grant = request.url.searchParams.get("grant_type");
    if (method === "GET" && path === "/health") return json(200, { version: "v2.fake", name: "GoTrue", description: "GoTrue is a user registration and authentication API" });
    if (method === "GET" && path === "/settings") {
      return json(200, {
        external: { anonymous_users: false, email: true, phone: false, google: false, github: false },
        disable_signup: false,
        mailer_autoconfirm: config.mailerAutoconfirm,
        phone_autoconfirm: false,
        sms_provider: "",
        saml_enabled: false,
      });
    }
    // Symmetric keys are not published; auth-js verifies HS256 tokens through /user instead.
    if (method === "GET" && path === "/.well-known/jwks.json") return json(200, { keys: [] });
    if (method === "POST" && path === "/signup") return signUp(request);
    if (method === "POST" && path === "/token" && grant === "password") return passwordGrant(request);
    if (method === "POST" && path === "/token" && grant === "refresh_token") return refreshGrant(request);
    if (method === "POST" && path === "/token" && grant === "pkce") return pkceGrant(request);
    if (method === "POST" && path === "/token") throw new AuthHttpError(400, "validation_failed", "unsupported_grant_type");
    if (method === "GET" && path === "/verify") return verify(request);
    if (method === "POST" && path === "/resend") return resend(request);
    if (method === "POST" && path === "/recover") return recover(request);
    if (method === "PUT" && path === "/user") return updateUser(request);
    if (method === "GET" && path === "/user") return json(200, await userJson((await caller(request)).user));
    if (method === "POST" && path === "/logout") return logout(request);
    if (method === "GET" && path === "/authorize") {
      // No provider is configured on this project (config.toml: [auth.external.google] enabled = false).
      throw new AuthHttpError(400, "validation_failed", "Unsupported provider: provider is not enabled");
    }
    const adminUser = /^\/admin\/users\/([^/]+)$/.exec(path);
    // auth-js's admin.deleteUser reads the user first (to answer it), then deletes.
    if (method === "GET" && adminUser) return getUser(request, decodeURIComponent(adminUser[1]!));
    if (method === "DELETE" && adminUser) return deleteUser(request, decodeURIComponent(adminUser[1]!));
    throw new AuthHttpError(404, "not_found", "Not Found");
  }

  return {
    config,
    mails,
    endAllSessions() {
      for (const session of [...sessions.values()]) endSession(session);
    },
    async handle(request) {
      try {
        return await route(request);
      } catch (error) {
        if (error instanceof AuthHttpError) return sendError(request, error);
        console.error("[fake-supabase] auth:", error);
        return sendError(request, new AuthHttpError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information"));
      }
    },
  };
}
