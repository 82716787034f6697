import securityHeaders from "./src/server/security/security-headers.json" with { type: "json" };

/** @type {import("next").NextConfig} */
const nextConfig = {
  // PGlite (WASM), pg and pdf.js are loaded by Node at run time, never bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pdfjs-dist"],
  poweredByHeader: false,
  reactStrictMode: true,
  // Every response (pages, API, files, static assets); pages also get a per-request
  // Content-Security-Policy from src/proxy.ts.
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
