import { z } from "zod";

// Zod compiles object parsers with `new Function` when it may, and probes for that when an object
// schema is built. The shop's Content-Security-Policy forbids eval, so in the browser the probe
// only logs a violation: switch it off there before any schema exists. Every module takes `z`
// from here (eslint enforces it); the server keeps the compiled parsers.
if (typeof window !== "undefined") z.config({ jitless: true });

export { z };
