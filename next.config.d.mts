// Types for next.config.mjs (plain JS, as the design card names it), for the tests that read it.
import type { NextConfig } from "next";

declare const nextConfig: NextConfig;
export default nextConfig;
