"use client";

import { PageError } from "@/components/layout/page-error";
import "./globals.css";

/** The root layout itself failed (it reads the session, so a database outage lands here): retry loads the page again. */
export default function GlobalError() {
  return (
    <html lang="en-ZA">
      <body className="font-sans antialiased">
        <PageError onRetry={() => window.location.reload()} />
      </body>
    </html>
  );
}
