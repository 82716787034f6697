import type { SessionUser } from "./session-user";

/** Where a user lands after signing in without a destination: admins at work, customers shopping. */
export function homeFor(user: Pick<SessionUser, "role"> | null): string {
  return user?.role === "admin" ? "/admin/dashboard" : "/products";
}
