/**
 * Writes the Supabase-mode settings of a running `supabase start` stack into .env.local:
 *   npm run supabase:env        (npm run supabase:start runs it after starting the stack)
 * Reads `supabase status -o env`; keeps every other line of .env.local as it was.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { mergeEnvLocal, parseEnvLines, shopSettingsFromStatus } from "./lib/supabase-env";

function main(): number {
  let output: string;
  try {
    output = execFileSync(path.join("node_modules", ".bin", "supabase"), ["status", "-o", "env"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  } catch {
    console.error("`supabase status` failed: is the local stack running? Start it with `npm run supabase:start` (needs Docker).");
    return 1;
  }
  const result = shopSettingsFromStatus(parseEnvLines(output));
  if ("missing" in result) {
    console.error(`\`supabase status\` did not print ${result.missing.join(", ")}.`);
    return 1;
  }
  const file = path.resolve(".env.local");
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  fs.writeFileSync(file, mergeEnvLocal(current, result.settings), { mode: 0o600 });
  console.log(`Wrote the Supabase settings to ${path.relative(process.cwd(), file)}: NEXT_PUBLIC_SUPABASE_URL=${result.settings.NEXT_PUBLIC_SUPABASE_URL}. Now: npm run dev`);
  return 0;
}

process.exitCode = main();
