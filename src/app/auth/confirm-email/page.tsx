import type { Metadata } from "next";
import { AuthCard } from "@/components/auth/auth-card";
import { ConfirmEmailChange } from "@/components/auth/account-recovery-forms";

export const metadata: Metadata = { title: "Confirm your new e-mail address", robots: { index: false }, referrer: "no-referrer" };

/** Where a local-mode e-mail change link lands; the change is made by the button, not by opening the link. */
export default async function ConfirmEmailPage({ searchParams }: PageProps<"/auth/confirm-email">) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  return (
    <AuthCard title="Confirm your new e-mail address" intro="Confirm to sign in with this address from now on.">
      <ConfirmEmailChange token={token} />
    </AuthCard>
  );
}
