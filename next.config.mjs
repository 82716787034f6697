/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite (WASM) and pg are loaded by Node at run time, never bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
