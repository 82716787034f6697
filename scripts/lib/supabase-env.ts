/**
 * Turns `supabase status -o env` into the shop's Supabase-mode settings and merges them into an
 * .env.local text: the keys below are replaced, every other line is kept as it was.
 */

/** Which `supabase status` value each shop setting takes (the first one present wins). */
const FROM_STATUS: Record<string, string[]> = {
  NEXT_PUBLIC_SUPABASE_URL: ["API_URL"],
  NEXT_PUBLIC_SUPABASE_ANON_KEY: ["ANON_KEY", "PUBLISHABLE_KEY"],
  SUPABASE_SERVICE_ROLE_KEY: ["SERVICE_ROLE_KEY", "SECRET_KEY"],
  DATABASE_URL: ["DB_URL"],
};

/** KEY="value" lines as `supabase status -o env` prints them (values may be quoted). */
export function parseEnvLines(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!.trim();
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) value = value.slice(1, -1);
    values[match[1]!] = value;
  }
  return values;
}

/** The shop's settings from a status, or the names of the values the status lacks. */
export function shopSettingsFromStatus(status: Record<string, string>): { settings: Record<string, string> } | { missing: string[] } {
  const settings: Record<string, string> = {};
  const missing: string[] = [];
  for (const [setting, sources] of Object.entries(FROM_STATUS)) {
    const source = sources.find((name) => status[name]);
    if (source) settings[setting] = status[source]!;
    else missing.push(sources.join(" or "));
  }
  return missing.length > 0 ? { missing } : { settings };
}

/**
 * `current` (an .env.local text, maybe empty) with `settings` in it: each setting's line replaced
 * where it is, or appended under a marked block; SITE_URL added only when absent.
 */
export function mergeEnvLocal(current: string, settings: Record<string, string>, siteUrl = "http://localhost:3000"): string {
  const wanted = new Map(Object.entries(settings));
  const lines = current.length > 0 ? current.replace(/\n$/, "").split("\n") : [];
  const out = lines.map((line) => {
    const key = /^\s*([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
    if (key && wanted.has(key)) {
      const value = wanted.get(key)!;
      wanted.delete(key);
      return `${key}=${value}`;
    }
    return line;
  });
  const hasSiteUrl = lines.some((line) => /^\s*SITE_URL=/.test(line));
  if (wanted.size > 0 || !hasSiteUrl) {
    out.push("", "# Supabase mode, from `supabase status` (npm run supabase:env)");
    for (const [key, value] of wanted) out.push(`${key}=${value}`);
    if (!hasSiteUrl) out.push(`SITE_URL=${siteUrl}`);
  }
  return `${out.join("\n").replace(/^\n+/, "")}\n`;
}
