"use client";

import { pageMessages } from "@/lib/page-messages";
import "./global-error.css";

/**
 * The root layout itself failed (it reads the session, so a database outage lands here): retry
 * loads the page again. What PageError says, with a small stylesheet of its own (./global-error.css).
 */
export default function GlobalError() {
  return (
    <html lang="en-ZA">
      <body className="global-error">
        <main role="alert">
          <h1>{pageMessages.pageFailedTitle}</h1>
          <p>{pageMessages.pageFailed}</p>
          <button type="button" onClick={() => window.location.reload()}>
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
