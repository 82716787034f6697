/**
 * The bench's baseline: a Next.js app with one static page and nothing else, built and measured
 * like the shop (scripts/bench/run.ts), so the framework's own first-load JS and hydration cost
 * sit beside the shop's figures.
 */
export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
