import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { site } from "@/server/settings/site";
import { googleSignInOffered } from "@/server/auth/google-sign-in";
import { getSessionUser } from "@/server/auth/guards";
import { homeFor } from "@/server/auth/home";
import { getRequestContext } from "@/trpc/request-context";

export const metadata: Metadata = {
  title: "Create an account",
  description: `Join ${site.name} to keep a cart, pay by bank transfer and follow your orders.`,
};

export default async function SignUpPage() {
  const user = await getSessionUser();
  if (user) redirect(homeFor(user));
  return (
    <AuthCard title={`Join ${site.name}`} intro="Create your account to shop with us.">
      <SignUpForm googleOffered={googleSignInOffered()} whatsappOn={await (await getRequestContext()).whatsapp.isOn()} />
    </AuthCard>
  );
}
