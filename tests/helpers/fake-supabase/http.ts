import type { IncomingMessage, ServerResponse } from "node:http";

/** One request as the fake's routes see it. */
export interface FakeRequest {
  method: string;
  /** The path below the service's prefix, e.g. `/token` for `/auth/v1/token`. */
  path: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body(): Promise<Buffer>;
  json(): Promise<Record<string, unknown>>;
}

export function fakeRequest(req: IncomingMessage, url: URL, path: string): FakeRequest {
  let read: Promise<Buffer> | undefined;
  const body = () =>
    (read ??= new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => resolve(Buffer.concat(chunks)));
      req.on("error", reject);
    }));
  return {
    method: req.method ?? "GET",
    path,
    url,
    headers: req.headers,
    body,
    async json() {
      const text = (await body()).toString("utf8");
      if (!text) return {};
      const parsed: unknown = JSON.parse(text);
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    },
  };
}

/** What a route answers; the server writes it with the CORS headers every Supabase answer carries. */
export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string | object | null;
}

export const json = (status: number, body: object, headers: Record<string, string> = {}): FakeResponse => ({ status, body, headers });

export function redirect(location: string, status = 303): FakeResponse {
  return { status, headers: { location } };
}

/**
 * Supabase's gateway answers browsers from any origin (supabase-js calls Auth and Storage from
 * the page); preflights name the headers supabase-js sends.
 */
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD",
  "access-control-allow-headers": "authorization, apikey, content-type, x-client-info, x-supabase-api-version, x-upsert, cache-control, x-metadata, range",
  "access-control-expose-headers": "content-length, content-range, x-supabase-api-version",
  "access-control-max-age": "3600",
};

export function writeResponse(res: ServerResponse, answer: FakeResponse) {
  const headers: Record<string, string> = { ...CORS_HEADERS, ...answer.headers };
  let payload: Buffer | undefined;
  if (Buffer.isBuffer(answer.body)) payload = answer.body;
  else if (typeof answer.body === "string") payload = Buffer.from(answer.body, "utf8");
  else if (answer.body !== undefined && answer.body !== null) {
    payload = Buffer.from(JSON.stringify(answer.body), "utf8");
    headers["content-type"] ??= "application/json; charset=utf-8";
  }
  if (payload) headers["content-length"] = String(payload.length);
  res.writeHead(answer.status, headers);
  res.end(payload);
}
