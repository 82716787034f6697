import { isIP } from "node:net";
import securityHeaders from "./src/server/security/security-headers.json" with { type: "json" };

/**
 * Whether `hostname` is a loopback or private address (or a localhost name), which Next's image
 * optimiser refuses to fetch from unless told otherwise: `supabase start` serves Storage on
 * 127.0.0.1. A name that only resolves to a private address (a Docker network's) is not
 * recognised here; use the address itself in NEXT_PUBLIC_SUPABASE_URL then.
 */
function isLocalHost(hostname) {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const family = isIP(host);
  if (family === 4) {
    const [a, b] = host.split(".").map(Number);
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return isLocalHost(mapped[1]);
    return host === "::1" || host === "::" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  return false;
}

/**
 * Supabase mode: product images and profile pictures are Supabase Storage's public URLs, which
 * next/image's optimiser fetches only from hosts `images.remotePatterns` allows, and only public
 * objects of this one project. Built from NEXT_PUBLIC_SUPABASE_URL as the server starts: Next
 * loads this file again at run time (`next start`, and `next()` in scripts/start.mjs) and the
 * optimiser reads `images` from that, so one build serves whichever project it is started with.
 */
function supabaseImages() {
  const raw = process.env.NEXT_PUBLIC_SUPABASE_URL?.trim();
  if (!raw) return {};
  let project;
  try {
    project = new URL(raw);
  } catch {
    // src/env.ts reports the setting; the optimiser then simply allows nothing remote.
    return {};
  }
  const prefix = project.pathname.replace(/\/+$/, "");
  return {
    remotePatterns: [
      {
        protocol: project.protocol.replace(/:$/, ""),
        hostname: project.hostname,
        port: project.port,
        pathname: `${prefix}/storage/v1/object/public/**`,
      },
    ],
    // The optimiser's SSRF guard, lifted only for a project on this machine or network.
    ...(isLocalHost(project.hostname) ? { dangerouslyAllowLocalIP: true } : {}),
  };
}

/** @type {import("next").NextConfig} */
const nextConfig = {
  // PGlite (WASM), pg and pdf.js are loaded by Node at run time, never bundled.
  // pdfkit (invoices) reads its own data files from node_modules at run time: kept out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pdfjs-dist", "pdfkit", "fontkit"],
  poweredByHeader: false,
  reactStrictMode: true,
  images: {
    // Uploaded pictures in the smallest format the browser takes, at the width it shows them
    // (a product card on a 390 px phone takes the 640 px image at most: PRODUCT_GRID_SIZES).
    formats: ["image/avif", "image/webp"],
    ...supabaseImages(),
  },
  experimental: {
    // The stylesheet in the page itself: the first paint waits for no second request, so it
    // comes before the scripts have loaded, and it is the largest paint (BENCHMARKS.md, issue 28).
    // Kept pages carry only the rules they use, the whole file after their body
    // (src/server/kept-pages/critical-stylesheet.ts).
    inlineCss: true,
  },
  // Every response (pages, API, files, static assets); pages also get a per-request
  // Content-Security-Policy from src/proxy.ts.
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
