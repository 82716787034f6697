import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const ZOD = { name: "zod", importNames: ["z"], message: "Import { z } from \"@/lib/zod\"." };
const NEXT_LINK = { name: "next/link", message: "Import { Link } from \"@/components/ui/link\"." };

const config = [
  ...nextVitals,
  ...nextTs,
  {
    // Schemas take `z` from src/lib/zod.ts, which keeps zod from probing for eval in the browser;
    // links come from src/components/ui/link.tsx, which prefetches on a person's intent.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/lib/zod.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [ZOD, NEXT_LINK] }],
    },
  },
  {
    files: ["src/components/ui/link.tsx"],
    rules: {
      "no-restricted-imports": ["error", { paths: [ZOD] }],
    },
  },
  {
    ignores: ["**/.next/**", ".tools/**", ".data/**", ".data-*/**", "node_modules/**", "next-env.d.ts", "test-results/**", "playwright-report/**"],
  },
];

export default config;
