/**
 * The shop's theme tokens (src/app/globals.css `@theme`) as plain hex values, because mail
 * clients understand neither CSS variables nor external style sheets: templates inline these.
 * Each key names its token; tests/unit/mail-templates.test.ts fails when a token changes and this
 * copy does not.
 */
export const mailTheme = {
  /** --color-brand-50: soft panels (a new status, an order's facts, a message). */
  brand50: "#effaf7",
  /** --color-brand-200: the panels' border. */
  brand200: "#b0e2d5",
  /** --color-brand-700: the header band and the primary button, as on the site. */
  brand700: "#0f5e57",
  /** --color-brand-800: headings and emphasised values. */
  brand800: "#0e4b46",
  /** --color-accent-100: the panel to act on (the bank details to pay into). */
  accent100: "#fdf0d9",
  /** --color-accent-700: labels on the accent panel (AA on accent-100), the pending status. */
  accent700: "#92400e",
  /** --color-ink: body text. */
  ink: "#1c2624",
  /** --color-muted: secondary text. */
  muted: "#55615e",
  /** --color-surface: the page behind the card. */
  surface: "#fbfaf7",
  /** --color-line: rules and table borders. */
  line: "#e4e2dc",
  /** --color-danger: the cancelled status. */
  danger: "#b91c1c",
  /** --color-success: the complete status. */
  success: "#166534",
  white: "#ffffff",
  /** --font-sans without ui-sans-serif, which mail clients do not know. */
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
} as const;

/** The globals.css token each colour above copies (the test compares them). */
export const mailThemeTokens = {
  brand50: "--color-brand-50",
  brand200: "--color-brand-200",
  brand700: "--color-brand-700",
  brand800: "--color-brand-800",
  accent100: "--color-accent-100",
  accent700: "--color-accent-700",
  ink: "--color-ink",
  muted: "--color-muted",
  surface: "--color-surface",
  line: "--color-line",
  danger: "--color-danger",
  success: "--color-success",
} as const satisfies Partial<Record<keyof typeof mailTheme, `--color-${string}`>>;
