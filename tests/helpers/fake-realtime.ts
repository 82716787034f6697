import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";

/**
 * A Supabase Realtime server as realtime-js (2.x, on @supabase/phoenix) sees it: a WebSocket at
 * `/realtime/v1/websocket` speaking the Phoenix channel protocol, serializer 2.0.0 (JSON arrays
 * `[join_ref, ref, topic, event, payload]`) or 1.0.0 (JSON objects), as the client's `vsn` asks.
 * It answers joins with the postgres_changes ids the client matches its bindings against,
 * heartbeats, `access_token` and `phx_leave`; sends changes, `system` messages, channel errors and
 * closes; and can refuse or drop sockets to play Realtime being down. No `ws` package: the
 * RFC 6455 handshake and framing the client needs are a few dozen lines on `node:http`.
 */

export const REALTIME_WEBSOCKET_PATH = "/realtime/v1/websocket";

/** One postgres_changes binding as the client asks for it (`filter` in PostgREST form). */
export interface PostgresChangesRequest {
  event: string;
  schema: string;
  table?: string;
  filter?: string;
}

/** What one client joined with, and what became of the join. */
export interface RealtimeJoin {
  topic: string;
  joinRef: string | null;
  /** The join's `config` (broadcast, presence, private as sent; postgres_changes normalised to a list). */
  config: { postgres_changes: PostgresChangesRequest[]; [key: string]: unknown };
  /** The token the server holds for the channel: the join's `access_token`, then each `access_token` message's. */
  accessToken: string | undefined;
  /** Every `access_token` message after the join, in order. */
  accessTokenUpdates: string[];
  /** The socket's query parameters (apikey, vsn, log_level). */
  params: Record<string, string>;
  answer: "ok" | "error" | "none";
  /** The ids answered for `config.postgres_changes`, in the same order. */
  ids: number[];
  left: boolean;
}

/** A WebSocket upgrade that reached the fake, answered or refused. */
export interface ConnectionAttempt {
  /** performance.now() when the upgrade arrived (not mocked by fake Date timers). */
  at: number;
  refused: boolean;
  params: Record<string, string>;
}

/**
 * How a join is answered: like Realtime does; "ok" but with bindings other than those asked for
 * (realtime-js then leaves the channel); an error reply with a reason; or not at all (the client
 * times out).
 */
export type JoinAnswer = "ok" | "mismatch" | "silent" | { error: string };

/** How upgrades are refused while Realtime is "down": an HTTP error, or the TCP connection dropped. */
export type RefusalKind = "http" | "drop";

export interface ChangeEvent {
  schema?: string;
  table: string;
  eventType: "INSERT" | "UPDATE" | "DELETE";
  new?: Record<string, unknown>;
  old?: Record<string, unknown>;
  commitTimestamp?: string;
}

export interface FakeRealtimeOptions {
  /** Where the WebSocket is served; Supabase's own path by default. */
  path?: string;
  /** Send `system` "Subscribed to PostgreSQL" after each successful join, as Realtime does. Default true. */
  announceSubscribed?: boolean;
  joinAnswer?: JoinAnswer;
}

export interface FakeRealtime {
  /** The project URL to hand to createClient (standalone only; a mounted fake has the host server's). */
  url: string;
  /** The WebSocket endpoint RealtimeClient wants (`.../realtime/v1`, it appends `/websocket`). */
  realtimeUrl: string;
  /** Takes one upgrade if its path is ours; false leaves it to the host server's other handlers. */
  handleUpgrade(request: http.IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Serves the WebSocket on an existing server's `upgrade` event; returns the detach function. */
  attach(server: http.Server): () => void;
  /** Sends a change to every joined channel with a matching binding; returns how many channels got it. */
  emitChange(change: ChangeEvent): number;
  /** Sends a `system` message to every joined channel (e.g. a postgres_changes error). */
  sendSystem(payload: { status: "ok" | "error"; message: string; extension?: string }): void;
  /** Server-side channel shutdown (`phx_close`), as on an expired token. */
  closeChannels(): void;
  /** A crashed channel process (`phx_error`); the client rejoins. */
  crashChannels(): void;
  /** Ends every open socket: with a close frame if `code` is given, else by dropping the TCP connection. */
  disconnectAll(code?: number): void;
  /** While on, every upgrade is refused (and open sockets are left alone; call disconnectAll too). */
  refuse(on: boolean, kind?: RefusalKind): void;
  setJoinAnswer(answer: JoinAnswer): void;
  readonly joins: RealtimeJoin[];
  readonly attempts: ConnectionAttempt[];
  /** Heartbeats answered so far. */
  readonly heartbeats: number;
  /** Sockets open now. */
  openSockets(): number;
  close(): Promise<void>;
}

/**
 * Node 22's WebSocket (undici 6) fires `error` but never `close` when the handshake fails, and
 * stays CONNECTING (nodejs/undici#3506, fixed in undici 7), so realtime-js, which reconnects on
 * `close`, would try once and wait forever. Browsers close, as the WebSocket standard says; clients
 * under test take this transport to behave as they do there. A no-op where `close` does come.
 */
export class BrowserLikeWebSocket extends WebSocket {
  #failed = false;

  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    let closed = false;
    this.addEventListener("close", () => (closed = true));
    this.addEventListener("error", () => {
      setTimeout(() => {
        if (closed || super.readyState !== WebSocket.CONNECTING) return;
        this.#failed = true;
        this.dispatchEvent(Object.assign(new Event("close"), { code: 1006, reason: "", wasClean: false }));
      });
    });
  }

  override get readyState(): number {
    return this.#failed ? WebSocket.CLOSED : super.readyState;
  }

  override close(code?: number, reason?: string) {
    if (!this.#failed) super.close(code, reason);
  }
}

const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const OP = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

interface Message {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

interface Channel {
  join: RealtimeJoin;
  subTopic: string;
}

interface Connection {
  socket: Duplex;
  vsn: string;
  params: Record<string, string>;
  channels: Map<string, Channel>;
  closing: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** A server frame (never masked); lengths past 64 KiB use the 64-bit form. */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? Buffer.alloc(2) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (length < 126) header[1] = length;
  else if (length < 65_536) {
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

/** Reads whole client frames off a byte stream (clients must mask; RFC 6455 §5.1). */
function frameReader(onFrame: (fin: boolean, opcode: number, payload: Buffer) => void, onProtocolError: () => void) {
  let buffered = Buffer.alloc(0);
  return (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      if (buffered.length < 2) return;
      const first = buffered[0]!;
      const second = buffered[1]!;
      const masked = (second & 0x80) !== 0;
      let length = second & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffered.length < 4) return;
        length = buffered.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffered.length < 10) return;
        length = Number(buffered.readBigUInt64BE(2));
        offset = 10;
      }
      if (!masked) return onProtocolError();
      if (buffered.length < offset + 4 + length) return;
      const mask = buffered.subarray(offset, offset + 4);
      const payload = Buffer.from(buffered.subarray(offset + 4, offset + 4 + length));
      for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
      buffered = buffered.subarray(offset + 4 + length);
      onFrame((first & 0x80) !== 0, first & 0x0f, payload);
    }
  };
}

function decode(vsn: string, text: string): Message | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (vsn === "1.0.0") {
    if (!isRecord(value) || typeof value.topic !== "string" || typeof value.event !== "string") return undefined;
    return { joinRef: str(value.join_ref), ref: str(value.ref), topic: value.topic, event: value.event, payload: value.payload };
  }
  if (!Array.isArray(value) || value.length !== 5) return undefined;
  const [joinRef, ref, topic, event, payload] = value as unknown[];
  if (typeof topic !== "string" || typeof event !== "string") return undefined;
  return { joinRef: str(joinRef), ref: str(ref), topic, event, payload };
}

function encode(vsn: string, message: Message): string {
  const { joinRef, ref, topic, event, payload } = message;
  return vsn === "1.0.0" ? JSON.stringify({ join_ref: joinRef, ref, topic, event, payload }) : JSON.stringify([joinRef, ref, topic, event, payload]);
}

function postgresChangesOf(config: Record<string, unknown>): PostgresChangesRequest[] {
  const list = Array.isArray(config.postgres_changes) ? config.postgres_changes : [];
  return list.filter(isRecord).map((binding) => ({
    event: str(binding.event) ?? "*",
    schema: str(binding.schema) ?? "*",
    ...(typeof binding.table === "string" ? { table: binding.table } : {}),
    ...(typeof binding.filter === "string" ? { filter: binding.filter } : {}),
  }));
}

/** Realtime's filters, the few operators the shop uses; another is a test bug, so it throws. */
function passesFilter(filter: string | undefined, record: Record<string, unknown>): boolean {
  if (!filter) return true;
  const match = /^([^=]+)=(eq|neq|in)\.(.*)$/.exec(filter);
  if (!match) throw new Error(`fake Realtime cannot evaluate the filter ${filter}`);
  const [, column, op, operand] = match as unknown as [string, string, string, string];
  const value = record[column] === undefined || record[column] === null ? null : String(record[column]);
  if (op === "eq") return value === operand;
  if (op === "neq") return value !== operand;
  return operand.replace(/^\(|\)$/g, "").split(",").includes(value ?? "");
}

function columnType(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? "int8" : "numeric";
  if (typeof value === "boolean") return "bool";
  if (isRecord(value) || Array.isArray(value)) return "jsonb";
  return "text";
}

/** Starts the fake on its own port (127.0.0.1); mount it elsewhere with `attach` or `handleUpgrade`. */
export async function startFakeRealtime(options: FakeRealtimeOptions = {}): Promise<FakeRealtime> {
  const path = options.path ?? REALTIME_WEBSOCKET_PATH;
  const announceSubscribed = options.announceSubscribed ?? true;
  let joinAnswer: JoinAnswer = options.joinAnswer ?? "ok";
  let refusal: RefusalKind | null = null;
  let heartbeats = 0;
  let nextId = 1;
  const joins: RealtimeJoin[] = [];
  const attempts: ConnectionAttempt[] = [];
  const connections = new Set<Connection>();

  function send(connection: Connection, message: Message) {
    if (connection.closing || connection.socket.destroyed) return;
    connection.socket.write(frame(OP.text, Buffer.from(encode(connection.vsn, message))));
  }

  function reply(connection: Connection, message: Message, status: "ok" | "error", response: unknown) {
    send(connection, { joinRef: message.joinRef, ref: message.ref, topic: message.topic, event: "phx_reply", payload: { status, response } });
  }

  function closeSocket(connection: Connection, code: number | undefined) {
    if (connection.closing) return;
    if (code === undefined) {
      connection.closing = true;
      connection.socket.destroy();
      return;
    }
    const body = Buffer.alloc(2);
    body.writeUInt16BE(code);
    connection.socket.write(frame(OP.close, body));
    connection.closing = true;
    connection.socket.end();
    // A client that never answers the close frame must not keep the fake open.
    setTimeout(() => connection.socket.destroy(), 1_000).unref();
  }

  function onJoin(connection: Connection, message: Message) {
    const payload = isRecord(message.payload) ? message.payload : {};
    const config = isRecord(payload.config) ? payload.config : {};
    const postgres_changes = postgresChangesOf(config);
    const join: RealtimeJoin = {
      topic: message.topic,
      joinRef: message.joinRef,
      config: { ...config, postgres_changes },
      accessToken: str(payload.access_token) ?? undefined,
      accessTokenUpdates: [],
      params: connection.params,
      answer: "none",
      ids: [],
      left: false,
    };
    joins.push(join);
    if (joinAnswer === "silent") return;
    if (typeof joinAnswer === "object") {
      join.answer = "error";
      reply(connection, message, "error", { reason: joinAnswer.error });
      return;
    }
    join.answer = "ok";
    join.ids = postgres_changes.map(() => nextId++);
    const subTopic = message.topic.replace(/^realtime:/, "");
    connection.channels.set(message.topic, { join, subTopic });
    // Realtime answers each binding with its id; realtime-js checks the order and the fields.
    const answered = joinAnswer === "mismatch" ? postgres_changes.map((binding) => ({ ...binding, table: `not_${binding.table ?? "any"}` })) : postgres_changes;
    reply(connection, message, "ok", { postgres_changes: answered.map((binding, i) => ({ ...binding, id: join.ids[i] })) });
    if (announceSubscribed && postgres_changes.length > 0) {
      send(connection, {
        joinRef: message.joinRef,
        ref: null,
        topic: message.topic,
        event: "system",
        payload: { channel: subTopic, extension: "postgres_changes", message: "Subscribed to PostgreSQL", status: "ok" },
      });
    }
  }

  function onMessage(connection: Connection, text: string) {
    const message = decode(connection.vsn, text);
    if (!message) return;
    if (message.topic === "phoenix" && message.event === "heartbeat") {
      heartbeats++;
      reply(connection, message, "ok", {});
      return;
    }
    const channel = connection.channels.get(message.topic);
    switch (message.event) {
      case "phx_join":
        onJoin(connection, message);
        return;
      case "phx_leave":
        if (channel) {
          channel.join.left = true;
          connection.channels.delete(message.topic);
        }
        reply(connection, message, "ok", {});
        return;
      case "access_token": {
        // Realtime takes the new token without a reply (it closes the channel if the token is bad).
        const token = isRecord(message.payload) ? str(message.payload.access_token) : null;
        if (channel && token) {
          channel.join.accessToken = token;
          channel.join.accessTokenUpdates.push(token);
        }
        return;
      }
      default:
        if (message.ref) reply(connection, message, channel ? "ok" : "error", channel ? {} : { reason: "unmatched topic" });
    }
  }

  function accept(request: http.IncomingMessage, socket: Duplex, head: Buffer, params: Record<string, string>) {
    const key = request.headers["sec-websocket-key"];
    const accept = createHash("sha1").update(`${String(key)}${WS_GUID}`).digest("base64");
    // No Sec-WebSocket-Extensions in the answer: permessage-deflate is declined, frames stay plain.
    socket.write(["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade", `Sec-WebSocket-Accept: ${accept}`, "", ""].join("\r\n"));
    const connection: Connection = { socket, vsn: params.vsn ?? "1.0.0", params, channels: new Map(), closing: false };
    connections.add(connection);
    let fragments: Buffer[] = [];
    const read = frameReader(
      (fin, opcode, payload) => {
        if (opcode === OP.ping) socket.write(frame(OP.pong, payload));
        else if (opcode === OP.close) {
          if (!connection.closing) socket.write(frame(OP.close, payload.subarray(0, 2)));
          connection.closing = true;
          socket.end();
        } else if (opcode === OP.text || opcode === OP.continuation || opcode === OP.binary) {
          fragments.push(payload);
          if (!fin) return;
          const whole = Buffer.concat(fragments);
          fragments = [];
          // Binary frames are realtime-js's broadcast pushes; the shop sends none.
          if (opcode !== OP.binary) onMessage(connection, whole.toString("utf8"));
        }
      },
      () => closeSocket(connection, 1002),
    );
    socket.on("data", read);
    socket.on("error", () => socket.destroy());
    socket.on("close", () => connections.delete(connection));
    if (head.length > 0) read(head);
  }

  function handleUpgrade(request: http.IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? "/", "http://fake-realtime");
    if (url.pathname !== path) return false;
    const params = Object.fromEntries(url.searchParams);
    attempts.push({ at: performance.now(), refused: refusal !== null, params });
    if (refusal === "drop") {
      socket.destroy();
      return true;
    }
    const valid = String(request.headers.upgrade).toLowerCase() === "websocket" && request.headers["sec-websocket-version"] === "13" && request.headers["sec-websocket-key"];
    if (refusal === "http" || !valid) {
      const status = refusal ? "503 Service Unavailable" : "400 Bad Request";
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return true;
    }
    accept(request, socket, head, params);
    return true;
  }

  const attached = new Map<http.Server, (request: http.IncomingMessage, socket: Duplex, head: Buffer) => void>();
  function attach(server: http.Server) {
    const listener = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => void handleUpgrade(request, socket, head);
    server.on("upgrade", listener);
    attached.set(server, listener);
    return () => {
      server.off("upgrade", listener);
      attached.delete(server);
    };
  }

  const own = http.createServer((_request, response) => response.writeHead(404).end());
  attach(own);
  await new Promise<void>((resolve) => own.listen(0, "127.0.0.1", resolve));
  const { port } = own.address() as AddressInfo;

  function eachChannel(visit: (connection: Connection, channel: Channel) => void) {
    for (const connection of connections) for (const channel of connection.channels.values()) visit(connection, channel);
  }

  return {
    url: `http://127.0.0.1:${port}`,
    realtimeUrl: `ws://127.0.0.1:${port}${path.replace(/\/websocket$/, "")}`,
    handleUpgrade,
    attach,
    emitChange(change) {
      const schema = change.schema ?? "public";
      const record = change.new ?? {};
      const oldRecord = change.old ?? {};
      let delivered = 0;
      eachChannel((connection, channel) => {
        const ids = channel.join.config.postgres_changes.flatMap((binding, i) => {
          const matches =
            (binding.event === "*" || binding.event === change.eventType) &&
            (binding.schema === "*" || binding.schema === schema) &&
            (binding.table === undefined || binding.table === "*" || binding.table === change.table) &&
            // Realtime cannot filter deletes (the old row carries the primary key only), so they all go out.
            (change.eventType === "DELETE" || passesFilter(binding.filter, record));
          return matches ? [channel.join.ids[i]!] : [];
        });
        if (ids.length === 0) return;
        const shown = change.eventType === "DELETE" ? oldRecord : record;
        const data = {
          type: change.eventType,
          schema,
          table: change.table,
          commit_timestamp: change.commitTimestamp ?? new Date().toISOString(),
          columns: Object.entries(shown).map(([name, value]) => ({ name, type: columnType(value) })),
          ...(change.eventType === "DELETE" ? {} : { record }),
          ...(change.eventType === "INSERT" ? {} : { old_record: oldRecord }),
          errors: null,
        };
        send(connection, { joinRef: null, ref: null, topic: channel.join.topic, event: "postgres_changes", payload: { ids, data } });
        delivered++;
      });
      return delivered;
    },
    sendSystem({ status, message, extension = "postgres_changes" }) {
      eachChannel((connection, channel) =>
        send(connection, { joinRef: channel.join.joinRef, ref: null, topic: channel.join.topic, event: "system", payload: { channel: channel.subTopic, extension, message, status } }),
      );
    },
    closeChannels() {
      eachChannel((connection, channel) => {
        send(connection, { joinRef: channel.join.joinRef, ref: channel.join.joinRef, topic: channel.join.topic, event: "phx_close", payload: {} });
        connection.channels.delete(channel.join.topic);
      });
    },
    crashChannels() {
      eachChannel((connection, channel) => {
        send(connection, { joinRef: channel.join.joinRef, ref: channel.join.joinRef, topic: channel.join.topic, event: "phx_error", payload: {} });
        connection.channels.delete(channel.join.topic);
      });
    },
    disconnectAll(code) {
      for (const connection of connections) closeSocket(connection, code);
    },
    refuse(on, kind = "http") {
      refusal = on ? kind : null;
    },
    setJoinAnswer(answer) {
      joinAnswer = answer;
    },
    joins,
    attempts,
    get heartbeats() {
      return heartbeats;
    },
    openSockets: () => [...connections].filter((connection) => !connection.closing).length,
    async close() {
      for (const connection of connections) connection.socket.destroy();
      for (const [server, listener] of attached) server.off("upgrade", listener);
      attached.clear();
      await new Promise<void>((resolve) => own.close(() => resolve()));
    },
  };
}
