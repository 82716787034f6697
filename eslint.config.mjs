import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    // Schemas take `z` from src/lib/zod.ts, which keeps zod from probing for eval in the browser.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/lib/zod.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "zod", importNames: ["z"], message: "Import { z } from \"@/lib/zod\"." }] }],
    },
  },
  {
    ignores: ["**/.next/**", ".tools/**", ".data/**", ".data-*/**", "node_modules/**", "next-env.d.ts", "test-results/**", "playwright-report/**"],
  },
];

export default config;
