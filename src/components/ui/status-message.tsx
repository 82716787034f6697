import type { FlashMessage } from "./use-flash-message";

const TONES: Record<FlashMessage["tone"], string> = {
  success: "border-green-200 bg-green-50 text-success",
  error: "border-red-200 bg-red-50 text-danger",
  info: "border-line bg-white text-ink",
};

/** The one place status messages appear: a polite live region, coloured by outcome. */
export function StatusMessage({ message, className = "" }: { message: FlashMessage | null; className?: string }) {
  return (
    <div aria-live="polite" role="status" className={className}>
      {message ? (
        <p className={`rounded-lg border px-4 py-3 text-sm font-medium ${TONES[message.tone]}`} data-tone={message.tone}>
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
