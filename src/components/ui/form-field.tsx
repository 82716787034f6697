"use client";

import { useId, useState, type ChangeEvent, type InputHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { storefrontMessages as messages } from "@/lib/storefront-messages";

const INPUT =
  "block w-full rounded-xl border border-line bg-white px-4 py-2.5 text-ink placeholder:text-muted/80 disabled:bg-surface disabled:text-muted";

/** A field's problem under it, tied to the input with aria-describedby. */
export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className="mt-1 text-sm text-danger">
      {error}
    </p>
  ) : null;
}

/**
 * A field's length against its limit, as it is typed: "12/120" under it, and at the limit a line
 * that says so (the browser stops the typing there and cuts a longer paste: never silently).
 */
function useLengthCount(id: string, props: { value?: unknown; defaultValue?: unknown; maxLength?: number }, show: boolean) {
  const [typed, setTyped] = useState(() => String(props.defaultValue ?? "").length);
  const length = props.value !== undefined ? String(props.value as string).length : typed;
  const max = props.maxLength;
  const counted = show && max !== undefined;
  return {
    track: (value: string) => setTyped(value.length),
    describedBy: counted ? `${id}-count` : null,
    count: counted ? (
      <p id={`${id}-count`} className={`tabular mt-1 text-right text-xs ${length >= max ? "font-medium text-danger" : "text-muted"}`} data-testid="length-count">
        {length >= max ? `${messages.lengthLimit.reached(max)} ` : null}
        {messages.lengthLimit.counter(length, max)}
      </p>
    ) : null,
  };
}

function describedBy(...ids: (string | null | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

/**
 * A labelled input; `error` marks it invalid and says why under it. `id` names it for links to it
 * (#id). `showCount` shows its length against `maxLength` as it is typed.
 */
export function TextField({ label, error, className = "", id: givenId, showCount = false, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; showCount?: boolean }) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const count = useLengthCount(id, props, showCount);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <input
        id={id}
        className={INPUT}
        aria-invalid={error ? true : undefined}
        {...props}
        aria-describedby={describedBy(props["aria-describedby"], error ? `${id}-error` : null, count.describedBy)}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          count.track(event.currentTarget.value);
          props.onChange?.(event);
        }}
      />
      <FieldError id={`${id}-error`} error={error} />
      {count.count}
    </div>
  );
}

/** A labelled text area, its length shown against `maxLength` as it is typed. */
export function TextAreaField({
  label,
  id: givenId,
  className = "",
  fieldClassName = "block w-full rounded-xl border border-line bg-white px-4 py-2.5 disabled:bg-surface",
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; fieldClassName?: string }) {
  const ownId = useId();
  const id = givenId ?? ownId;
  const count = useLengthCount(id, props, true);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <textarea
        id={id}
        className={fieldClassName}
        {...props}
        aria-describedby={describedBy(props["aria-describedby"], count.describedBy)}
        onChange={(event: ChangeEvent<HTMLTextAreaElement>) => {
          count.track(event.currentTarget.value);
          props.onChange?.(event);
        }}
      />
      {count.count}
    </div>
  );
}

/** A labelled password input with a show/hide toggle. */
export function PasswordField({ label, className = "", ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <div className="relative">
        <input id={id} type={visible ? "text" : "password"} className={`${INPUT} pr-20`} {...props} />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          disabled={props.disabled}
          aria-controls={id}
          aria-pressed={visible}
          aria-label={`${visible ? "Hide" : "Show"} ${label.toLowerCase()}`}
          className="absolute inset-y-1 right-1 rounded-lg px-3 text-sm font-medium text-brand-700 hover:bg-brand-50 disabled:text-muted"
        >
          {visible ? "Hide" : "Show"}
        </button>
      </div>
    </div>
  );
}
