import { redirect } from "next/navigation";
import { ADMIN_LINKS } from "@/server/auth/access";
import { requireAccess } from "@/server/auth/guards";

/** `/admin` is the admin's first page (the admin navigation's first tab); everyone else meets the admin guard. */
export default async function AdminIndex() {
  await requireAccess("admin", "/admin");
  redirect(ADMIN_LINKS[0].href);
}
