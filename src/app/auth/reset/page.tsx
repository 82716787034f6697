import type { Metadata } from "next";
import { AuthCard } from "@/components/auth/auth-card";
import { ResetPasswordForm } from "@/components/auth/account-recovery-forms";

export const metadata: Metadata = { title: "Set a new password", robots: { index: false }, referrer: "no-referrer" };

/**
 * Where a password reset link lands: in the local modes with its token in the query; in Supabase
 * mode through /auth/callback, which has started the recovery session. Nothing changes until the
 * form is sent, so a mail scanner opening the link uses nothing up.
 */
export default async function ResetPasswordPage({ searchParams }: PageProps<"/auth/reset">) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : undefined;
  return (
    <AuthCard title="Set a new password" intro="Choose a new password for your account. Every other device signed in to it will be signed out.">
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
