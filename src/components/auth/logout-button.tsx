import { Button } from "@/components/ui/button";

/**
 * Signs out and returns home: a form that posts to /auth/signout (src/app/auth/signout/route.ts),
 * which ends the session, clears what the browser kept of the shop and loads home as a new
 * document; a failure is only logged (spec §8). No script is needed, so the button works from
 * the first paint, before the page's scripts have run.
 */
export function LogoutButton({ label = "Logout", className = "" }: { label?: string; className?: string }) {
  return (
    <form method="post" action="/auth/signout" className="contents">
      <Button type="submit" variant="outline" className={className}>
        {label}
      </Button>
    </form>
  );
}
