"use client";

import { useState, type ChangeEvent, type InputHTMLAttributes, type Ref } from "react";
import { UPLOAD_ACCEPT, uploadProblem, type UploadKind } from "@/lib/upload-rules";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "accept" | "onChange"> & {
  id: string;
  kind: UploadKind;
  inputRef?: Ref<HTMLInputElement>;
  /** Called with a file that passed the browser's checks (never with a refused one). */
  onAccepted?: (file: File, input: HTMLInputElement) => void;
};

/**
 * A file input that checks the chosen file's type and size at once, in the browser, with the
 * server's own messages: a refused file is taken off the input (nothing of it is sent) and the
 * reason shows under it.
 */
export function FileInput({ id, kind, inputRef, onAccepted, className, ...rest }: Props) {
  const [problem, setProblem] = useState<string | null>(null);
  function change(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    const found = file ? uploadProblem(file, kind) : null;
    setProblem(found);
    if (found) input.value = "";
    else if (file) onAccepted?.(file, input);
  }
  const describedBy = [rest["aria-describedby"], problem ? `${id}-problem` : null].filter(Boolean).join(" ") || undefined;
  return (
    <>
      <input
        {...rest}
        id={id}
        ref={inputRef}
        type="file"
        accept={UPLOAD_ACCEPT[kind]}
        onChange={change}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy}
        className={className}
      />
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="mt-1 text-sm text-danger">
          {problem}
        </p>
      ) : null}
    </>
  );
}
