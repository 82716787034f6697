import Link from "next/link";
import { AdminLiveStatus } from "@/components/admin/live-status";
import { AdminNav } from "@/components/admin/admin-nav";
import { AdminNotices } from "@/components/admin/notices/admin-notices";
import { messages } from "@/lib/messages";
import { ADMIN_LINKS } from "@/server/auth/access";
import { getRequestContext } from "@/trpc/request-context";
import { caller } from "@/trpc/caller";

/**
 * Every admin page: the admin navigation (with the counts of new orders and messages), the
 * notices of new ones as they arrive, and, in production while checkout cannot take orders
 * because the bank account is still the demo placeholder, a banner that says so and links to Shop
 * settings. The pages guard themselves (requireAccess); all of it is shown to admins only.
 */
export default async function AdminLayout({ children }: LayoutProps<"/admin">) {
  const { user } = await getRequestContext();
  if (user?.role !== "admin") return children;
  const notSetUp = (await caller.settings.published()).bankTransfer === "not_set_up";
  return (
    <>
      <AdminNav links={ADMIN_LINKS} />
      <AdminLiveStatus />
      {notSetUp ? (
        <div role="status" className="border-b border-red-200 bg-red-50" data-testid="settings-banner">
          <p className="mx-auto max-w-6xl px-4 py-3 text-sm font-medium text-danger sm:px-6">
            {messages.settings.bankNotSetUp}{" "}
            <Link href="/admin/settings" className="font-semibold underline">
              Open Shop settings
            </Link>
          </p>
        </div>
      ) : null}
      {children}
      <AdminNotices />
    </>
  );
}
