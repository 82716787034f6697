"use client";

import { Link } from "@/components/ui/link";
import { signInHref, signInQuery, SIGN_IN_PATH, type SignInReason } from "@/lib/sign-in-paths";
import { Button, type ButtonVariant } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

/**
 * A visitor's button for what needs an account ('Add to Cart', 'E-mail me when it is back'). It
 * works from the first paint: it is the submit button of a plain GET form to the sign-in page,
 * with the way back to this page, so a tap before the page's scripts have run goes to sign in.
 * Once they have, the tap says why inline (the spec's message) and offers the link instead.
 */
export function SignInFirst({
  next,
  reason,
  label,
  message,
  linkText,
  variant,
  className,
}: {
  next: string;
  reason?: SignInReason;
  label: string;
  message: string;
  linkText: string;
  variant: ButtonVariant;
  className: string;
}) {
  const flash = useFlashMessage();
  return (
    <div className="space-y-3">
      <form
        action={SIGN_IN_PATH}
        method="get"
        onSubmit={(event) => {
          event.preventDefault();
          flash.show(message, "info");
        }}
      >
        {[...signInQuery(next, reason)].map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Button type="submit" variant={variant} className={className}>
          {label}
        </Button>
      </form>
      <StatusMessage message={flash.message} />
      {flash.message ? (
        <Link href={signInHref(next, reason)} className="inline-block text-sm font-semibold text-brand-700 underline">
          {linkText}
        </Link>
      ) : null}
    </div>
  );
}
