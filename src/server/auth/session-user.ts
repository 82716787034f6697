import type { UserRole } from "@/lib/statuses";
import { KeptValues } from "@/server/cache/kept-values";
import { perDatabase } from "@/server/cache/per-database";
import { runAs, type Tx } from "@/server/db/as-caller";
import { cartOwnerOf, parseSessionChange, SESSION_CHANNEL, SHOP_CHANGES_CHANNEL } from "@/server/db/channels";
import type { ShopDatabase } from "@/server/db/database";
import type { AuthUser } from "@/server/ports/auth";
import { readProfile, readProfileAndCartCount, type ProfileRow } from "./auth-queries";

/** The signed-in user as the app sees them; role always from public.profiles, never the client. */
export interface SessionUser {
  id: string;
  email: string | null;
  /** Full name from the profile, else the email (the navigation bar's greeting). */
  displayName: string;
  fullName: string | null;
  role: UserRole;
  avatarPath: string | null;
}

/** What the header shows of a signed-in user: who they are, and how many items their cart holds. */
export interface SessionUserWithCart {
  user: SessionUser;
  cartCount: number;
}

/** A missing profile (null) gives role 'user'. */
function sessionUserOf(user: AuthUser, profile: ProfileRow | null): SessionUser {
  const metadataName = typeof user.userMetadata.full_name === "string" ? user.userMetadata.full_name : null;
  const fullName = profile?.full_name ?? metadataName;
  return {
    id: user.id,
    email: user.email,
    fullName,
    displayName: fullName || user.email || "there",
    role: profile?.role ?? "user",
    avatarPath: profile?.avatar_path ?? null,
  };
}

/** A kept profile or cart count is read again after this long, whatever is heard. */
export const SESSION_USER_CACHE_MS = 30_000;
/** How many users' profiles (and as many cart counts) are kept at most; the least recently used go first. */
export const MAX_CACHED_USERS = 10_000;

/**
 * The signed-in users this process has looked up lately: their profile (name, role, picture) and
 * how many items their cart holds, so a signed-in page or call does not read them each time
 * (docs/architecture.md#caches-and-several-processes). Both are read as the user (RLS), in one statement when neither is kept; a
 * failed read leaves the user signed out (spec §4), with the cause logged.
 *
 * A change shows at once: the caller's own writes drop their entries in this process
 * (`changed`), and every process drops them when the database announces a change: a profile or
 * account on 'session_changes' (triggers), a cart line on 'shop_changes' (the live updates'
 * trigger). Only a notification lost while a PostgreSQL connection was down can leave a value
 * stale, for SESSION_USER_CACHE_MS at most; row-level security never relies on it.
 */
export class SessionUsers {
  readonly #profiles: KeptValues<string, ProfileRow | null>;
  readonly #cartCounts: KeptValues<string, number>;
  readonly #keep: boolean;

  /** `keep: false` reads every time (where this process cannot hear of changes). */
  constructor(
    private readonly database: ShopDatabase,
    options: { now?: () => number; keep?: boolean } = {},
  ) {
    const bounds = { max: MAX_CACHED_USERS, ttlMs: SESSION_USER_CACHE_MS, now: options.now };
    this.#profiles = new KeptValues(bounds);
    this.#cartCounts = new KeptValues(bounds);
    this.#keep = options.keep ?? true;
  }

  #asUser<T>(user: AuthUser, work: (trx: Tx) => Promise<T>): Promise<T> {
    return runAs(this.database.kysely, { kind: "user", id: user.id, email: user.email }, work);
  }

  /** The caller as the app sees them (role from the profile); null if the profile cannot be read. */
  async sessionUser(user: AuthUser): Promise<SessionUser | null> {
    try {
      const profile = await this.#profiles.fill(user.id, () => this.#asUser(user, (trx) => readProfile(trx, user.id)), () => this.#keep);
      return sessionUserOf(user, profile);
    } catch (error) {
      console.error("[auth] profile read failed:", error);
      return null;
    }
  }

  /** The caller and their cart count (0 for an admin, who has no cart); null if they cannot be read. */
  async withCartCount(user: AuthUser): Promise<SessionUserWithCart | null> {
    const profile = this.#profiles.get(user.id);
    const cartCount = this.#cartCounts.get(user.id);
    if (profile !== undefined && (cartCount !== undefined || profile?.role === "admin")) {
      return { user: sessionUserOf(user, profile), cartCount: cartCount ?? 0 };
    }
    const profileMark = this.#profiles.mark();
    const countMark = this.#cartCounts.mark();
    try {
      const read = await this.#asUser(user, (trx) => readProfileAndCartCount(trx, user.id));
      if (this.#keep) {
        this.#profiles.set(user.id, read.profile, profileMark);
        this.#cartCounts.set(user.id, read.cartCount, countMark);
      }
      const sessionUser = sessionUserOf(user, read.profile);
      return { user: sessionUser, cartCount: sessionUser.role === "admin" ? 0 : read.cartCount };
    } catch (error) {
      console.error("[auth] profile read failed:", error);
      return null;
    }
  }

  /** The user changed their own profile or cart through this process: forget it here now. */
  changed(userId: string, what: "profile" | "cart"): void {
    if (what === "profile") this.#profiles.forget(userId);
    else this.#cartCounts.forget(userId);
  }

  /** Applies a notification from SESSION_CHANNEL or SHOP_CHANGES_CHANNEL. */
  heard(channel: string, payload: string): void {
    if (channel === SHOP_CHANGES_CHANNEL) {
      const owner = cartOwnerOf(payload);
      if (owner) this.#cartCounts.forget(owner);
      return;
    }
    const change = parseSessionChange(payload);
    if (change && "session" in change) return;
    if (change) {
      this.#profiles.forget(change.user);
      this.#cartCounts.forget(change.user);
    } else {
      this.clear();
    }
  }

  clear(): void {
    this.#profiles.clear();
    this.#cartCounts.clear();
  }
}

const sessionUsers = perDatabase<SessionUsers>({
  channels: {
    [SESSION_CHANNEL]: (users, payload) => users.heard(SESSION_CHANNEL, payload),
    [SHOP_CHANGES_CHANNEL]: (users, payload) => users.heard(SHOP_CHANGES_CHANNEL, payload),
  },
  onGap: (users) => users.clear(),
  unheard: (_users, error, database) => {
    console.error("[auth] could not listen for profile and cart changes; they are read from the database each time:", error);
    return new SessionUsers(database, { keep: false });
  },
});

/**
 * The signed-in users of a database (one per process and database), listening for changes from
 * the start. If it cannot listen, nothing is kept: every lookup reads the database.
 */
export function sessionUsersFor(database: ShopDatabase): Promise<SessionUsers> {
  return sessionUsers(database, () => new SessionUsers(database));
}
