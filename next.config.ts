import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./src/server/security/http-headers";

const nextConfig: NextConfig = {
  // PGlite (WASM) and pg are loaded by Node at run time, never bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  poweredByHeader: false,
  reactStrictMode: true,
  // Every response (pages, API, files, static assets); pages also get a per-request
  // Content-Security-Policy from src/proxy.ts.
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
