import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@": path.resolve(import.meta.dirname, "src"), "server-only": path.resolve(import.meta.dirname, "tests/helpers/server-only.ts") },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/helpers/global-setup.ts"],
    // On PGlite, files run side by side, each with its own in-process database: vitest's default
    // (one core fewer than the machine has) ran them one at a time on the 2-core machines, 262 s
    // against 166 s. On a PostgreSQL server one at a time: each file's pool takes up to 60 of the
    // server's 100 connections, and two files' concurrency tests at once ran out of them.
    maxWorkers: process.env.DATABASE_URL || process.env.SUPABASE_ADMIN_URL ? 1 : Math.max(2, os.availableParallelism() - 1),
    // Each file starts its own database (PGlite in memory, or a fresh PostgreSQL database).
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
