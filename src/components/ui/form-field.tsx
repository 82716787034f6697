"use client";

import { useId, useState, type InputHTMLAttributes } from "react";

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

/** A labelled input; `error` marks it invalid and says why under it. `id` names it for links to it (#id). */
export function TextField({ label, error, className = "", id: givenId, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string }) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <input id={id} className={INPUT} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...props} />
      <FieldError id={`${id}-error`} error={error} />
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
