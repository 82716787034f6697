import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeNextPath } from "@/server/auth/schemas";
import { site } from "@/server/settings/site";
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

  return (
    <AuthCard title="Welcome back" intro="Sign in with your email and password.">
      <SignInForm next={nextParam ? safeNextPath(nextParam) : undefined} googleDone={googleDone} />
    </AuthCard>
  );
}
