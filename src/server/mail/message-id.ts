/**
 * The Message-ID of an outbox row's mail: `<outbox-{id}@{shop host}>`. The same row always gets
 * the same ID, so a mail delivered twice (the worker crashed after the server accepted it)
 * threads as one message in the recipient's client.
 */
export function outboxMessageId(outboxId: string | number | bigint, siteUrl: string): string {
  const id = String(outboxId);
  if (!/^[A-Za-z0-9._-]+$/.test(id)) throw new RangeError("An outbox id is letters, digits, '.', '_' or '-'.");
  let host: string;
  try {
    host = new URL(siteUrl).hostname;
  } catch {
    throw new RangeError("The site URL is not a URL.");
  }
  // An IPv6 literal is no domain; its digits without the colons and brackets still identify it.
  host = host.replace(/[[\]]/g, "").replace(/:/g, "-") || "localhost";
  return `<outbox-${id}@${host}>`;
}
