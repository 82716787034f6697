import { Link } from "@/components/ui/link";
import { AdminLiveStatus } from "@/components/admin/live-status";
import { AdminNav } from "@/components/admin/admin-nav";
import { AdminNotices } from "@/components/admin/notices/admin-notices";
import { goLiveMessages, messages } from "@/lib/messages";
import { ADMIN_LINKS } from "@/server/auth/access";
import { getRequestContext } from "@/trpc/request-context";
import { caller } from "@/trpc/caller";

/**
 * Every admin page: the admin navigation (with the counts of new orders and messages), the
 * notices of new ones as they arrive, and, in production while any setting is still a demo value
 * or missing (the go-live checklist, issue 34), a banner that says so and links to Shop settings:
 * first that checkout cannot take orders, while the bank account is the demo placeholder. The
 * pages guard themselves (requireAccess); all of it is shown to admins only.
 */
export default async function AdminLayout({ children }: LayoutProps<"/admin">) {
  const { user } = await getRequestContext();
  if (user?.role !== "admin") return children;
  const goLive = await caller.settings.goLive();
  const left = goLive.production ? goLive.items : [];
  const bankLeft = left.includes("bank");
  return (
    <>
      <AdminNav links={ADMIN_LINKS} />
      <AdminLiveStatus />
      {left.length > 0 ? (
        <div role="status" className={`border-b ${bankLeft ? "border-red-200 bg-red-50" : "border-accent-500 bg-accent-100"}`} data-testid="settings-banner">
          <p className={`mx-auto max-w-6xl px-4 py-3 text-sm font-medium sm:px-6 ${bankLeft ? "text-danger" : "text-ink"}`}>
            {bankLeft ? `${messages.settings.bankNotSetUp} ` : null}
            {goLiveMessages.banner(left.length)}{" "}
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
