/**
 * A sentence above the sign-in form that the page knows before it renders: why the visitor was
 * sent here, why Google sign-in came back without a session, or what became of an e-mailed link
 * (an expired confirmation, or one confirmed in another browser). Not a live region: it is there
 * when the page loads, so it is read in order with the rest of the card.
 */
export function SignInNotice({ text, tone }: { text: string; tone: "info" | "error" }) {
  const colours = tone === "error" ? "border-red-200 bg-red-50 text-danger" : "border-brand-200 bg-brand-50 text-brand-900";
  return (
    <p className={`mb-6 rounded-lg border px-4 py-3 text-sm font-medium ${colours}`} data-tone={tone}>
      {text}
    </p>
  );
}
