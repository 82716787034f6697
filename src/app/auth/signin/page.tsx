import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { SignInNotice } from "@/components/auth/sign-in-notice";
import { safeNextPath } from "@/server/auth/schemas";
import { googleFailureMessage, signInReasonMessage } from "@/lib/sign-in-texts";
import { site } from "@/server/settings/site";
import { emailLinkNotice } from "@/server/auth/callback-flow";
import { googleSignInOffered } from "@/server/auth/google-sign-in";
import { getSessionUser } from "@/server/auth/guards";
import { homeFor } from "@/server/auth/home";

export const metadata: Metadata = {
  title: "Sign in",
  description: `Sign in to your ${site.name} account to shop, check out and see your orders.`,
};

export default async function SignInPage({ searchParams }: PageProps<"/auth/signin">) {
  const params = await searchParams;
  const nextParam = typeof params.next === "string" ? params.next : undefined;
  const user = await getSessionUser();
  const destination = safeNextPath(nextParam, homeFor(user));
  // Back from Google: the form says so before moving on. Otherwise a signed-in user has nothing to do here.
  const googleDone = params.google === "success" && user ? destination : undefined;
  if (user && !googleDone) redirect(destination);

  // A refused `next` is dropped, not replaced by "/", so the user lands on their role's home.
  const next = safeNextPath(nextParam, "") || undefined;
  // `reason` names why a guard sent the visitor here, or, after `error=google`, why Google failed,
  // or, after `error=signup` (magiclink, recovery), why an e-mailed link did not sign them in.
  const notice = signInNotice(params.error, params.reason);

  return (
    <AuthCard title="Welcome back" intro="Sign in with your email and password.">
      {notice ? <SignInNotice text={notice.text} tone={notice.tone} /> : null}
      <SignInForm next={next} googleDone={googleDone} googleOffered={googleSignInOffered()} />
    </AuthCard>
  );
}

/** The sentence above the form: a failed Google sign-in or e-mailed link, else why a guard sent the visitor. */
function signInNotice(error: unknown, reason: unknown): { text: string; tone: "info" | "error" } | null {
  if (error === "google") return { text: googleFailureMessage(reason), tone: "error" };
  const link = emailLinkNotice(error, reason);
  if (link) return link;
  const why = signInReasonMessage(reason);
  return why ? { text: why, tone: "info" } : null;
}
