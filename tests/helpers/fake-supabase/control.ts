import type { SentMail } from "./auth";
import type { StoredObjectInfo } from "./storage";

/**
 * The test side of a fake Supabase running in another process (the browser tests' server):
 * what Inbucket and `supabase stop realtime` would be on a local stack.
 */
export function fakeSupabaseControl(url: string) {
  const call = async <T>(method: "GET" | "POST", route: string, body?: object): Promise<T> => {
    const response = await fetch(`${url}/__fake${route}`, {
      method,
      headers: body ? { "content-type": "application/json" } : undefined,
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`fake Supabase ${method} ${route}: ${response.status}`);
    return (await response.json()) as T;
  };
  return {
    /** The project's URL and API keys, as `supabase status` prints them. */
    async project(): Promise<{ url: string; anonKey: string; serviceRoleKey: string }> {
      return call("GET", "/project");
    },
    /** The mails Auth "sent" to an address, oldest first. */
    async mails(to: string): Promise<SentMail[]> {
      return (await call<{ mails: SentMail[] }>("GET", `/mails?to=${encodeURIComponent(to)}`)).mails;
    },
    /** E-mail confirmation on (sign-up answers no session and mails a link) or off. */
    async setEmailConfirmation(on: boolean): Promise<void> {
      await call("POST", "/auth", { mailerAutoconfirm: !on });
    },
    /** Realtime reachable, or refusing every WebSocket with its sockets dropped. */
    async setRealtimeUp(up: boolean): Promise<void> {
      await call("POST", "/realtime", { up });
    },
    /** Whether Realtime is up, its open sockets, the topics joined now, and upgrade attempts so far. */
    async realtimeState(): Promise<{ up: boolean; openSockets: number; joined: string[]; attempts: number }> {
      return call("GET", "/realtime");
    },
    /** Every object of a bucket, whoever owns it. */
    async storedObjects(bucket: string): Promise<StoredObjectInfo[]> {
      return (await call<{ objects: StoredObjectInfo[] }>("GET", `/storage/objects?bucket=${encodeURIComponent(bucket)}`)).objects;
    },
  };
}

export type FakeSupabaseControl = ReturnType<typeof fakeSupabaseControl>;
