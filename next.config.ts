import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./src/server/security/http-headers";

const nextConfig: NextConfig = {
  // PGlite (WASM) and pg are loaded by Node at run time, never bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  poweredByHeader: false,
  experimental: {
    // The catalogue cache (unstable_cache) lives in memory only: it starts empty with each server,
    // so a restored backup or another DATA_DIR never shows a previous database's catalogue, and
    // nothing accumulates under .next/cache. Every page is rendered per request, so no ISR output
    // needs the disk either.
    isrFlushToDisk: false,
  },
  reactStrictMode: true,
  // Every response (pages, API, files, static assets); pages also get a per-request
  // Content-Security-Policy from src/proxy.ts.
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
