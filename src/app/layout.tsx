import type { Metadata, Viewport } from "next";
import { BRAND_COLOURS } from "@/lib/brand-icon";
import { SIGNED_IN_MARK } from "@/lib/page-viewer";
import { CustomCursor } from "@/components/layout/custom-cursor";
import { SiteFooter } from "@/components/layout/site-footer";
import { SiteHeader } from "@/components/layout/site-header";
import { env } from "@/env";
import { site } from "@/server/settings/site";
import { ArrivalNotice, TRPCReactProvider, ViewerProvider } from "@/components/signed-in";
import { getPageViewer } from "@/server/auth/guards";
import "./globals.css";

export const metadata: Metadata = {
  metadataBase: new URL(env.SITE_URL ?? "http://localhost:3000"),
  title: { default: `${site.name} · ${site.tagline}`, template: `%s · ${site.name}` },
  description: site.description,
  openGraph: {
    type: "website",
    locale: "en_ZA",
    siteName: site.name,
    title: site.name,
    description: site.description,
  },
};

/** The phone's browser bar in the shop's colour (the favicon, touch icon and manifest are this folder's metadata files). */
export const viewport: Viewport = { themeColor: BRAND_COLOURS.theme };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Signed-in views (cart, checkout, profile, admin, the header's badge) use tRPC's React Query
  // hooks; a visitor's pages do not, so a visitor never downloads that client.
  const viewer = await getPageViewer();
  const page = (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2">
        Skip to content
      </a>
      {/* No frame is painted before the header has been parsed whole (React puts this in the head):
          a frame painted mid-header, with the account not yet parsed, moved the navigation when
          it came (a browser test caught it). Chromium honours it; other browsers ignore it. */}
      <link rel="expect" href="#main" blocking="render" />
      <SiteHeader />
      <div id="main" className="flex-1">
        {children}
      </div>
      <SiteFooter />
      <CustomCursor />
    </>
  );
  return (
    <html lang="en-ZA">
      <body className="flex min-h-dvh flex-col font-sans antialiased">
        {viewer.kind === "signed-in" ? (
          <>
            {/* Hoisted to the head by React: the signed-in components' chunks are fetched as the scripts start (src/components/signed-in.tsx). */}
            <meta name={SIGNED_IN_MARK} content="" />
            <ViewerProvider viewer={viewer.data}>
              <TRPCReactProvider>{page}</TRPCReactProvider>
              {/* "Sign-in successful ✅", carried from the sign-in page it replaced. */}
              <ArrivalNotice />
            </ViewerProvider>
          </>
        ) : (
          page
        )}
      </body>
    </html>
  );
}
