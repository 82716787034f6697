import { TRPCReactProvider } from "@/trpc/react";
import { getRequestContext } from "@/trpc/request-context";

/** The sign-in and sign-up forms use tRPC's hooks; visitors get the client here, not site-wide. */
export default async function AuthLayout({ children }: { children: React.ReactNode }) {
  const { user } = await getRequestContext();
  return user ? children : <TRPCReactProvider>{children}</TRPCReactProvider>;
}
