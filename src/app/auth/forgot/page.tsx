import type { Metadata } from "next";
import { AuthCard } from "@/components/auth/auth-card";
import { ForgotPasswordForm } from "@/components/auth/account-recovery-forms";

export const metadata: Metadata = { title: "Forgot password", robots: { index: false } };

/** "Forgot password?": asks for the address and always answers the same (issue 34). */
export default function ForgotPasswordPage() {
  return (
    <AuthCard title="Forgot your password?" intro="Enter your account's email address and we will send you a link to set a new password.">
      <ForgotPasswordForm />
    </AuthCard>
  );
}
