import type { ButtonHTMLAttributes } from "react";

const VARIANTS = {
  primary: "bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-700/60",
  accent: "bg-accent-600 text-white hover:bg-accent-700 disabled:bg-accent-600/60",
  outline: "border border-line bg-white text-ink hover:bg-brand-50 disabled:text-muted",
  ghost: "text-brand-700 hover:bg-brand-50",
  danger: "bg-danger text-white hover:bg-red-800 disabled:bg-danger/60",
  onDark: "border border-white/50 text-white hover:bg-white/10",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

export function buttonClasses(variant: ButtonVariant = "primary", extra = "") {
  return `inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-5 py-2.5 text-sm font-semibold transition disabled:cursor-not-allowed ${VARIANTS[variant]} ${extra}`;
}

export function Button({
  variant = "primary",
  className = "",
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClasses(variant, className)} {...props} />;
}
