// The production entry point (`npm start`): Next.js's own server behind a plain Node HTTP server
// that decides what the client's address is before Next.js sees the request.
//
// Rate limits key on the client's address (src/server/security/rate-limit.ts). Next.js gives
// route handlers no socket address and fills X-Forwarded-For from the socket only when the
// header is absent, so a client could name any address it liked. Here, unless TRUST_PROXY says a
// proxy in front sets the header, it is replaced with the connection's own address.
//
// Usage: node scripts/start.mjs [-p PORT] [-H HOSTNAME]   (PORT and HOSTNAME from the environment otherwise)
import http from "node:http";
import next from "next";

const args = process.argv.slice(2);
const option = (short, long) => {
  const at = args.findIndex((arg) => arg === short || arg === long);
  return at >= 0 ? args[at + 1] : undefined;
};
const port = Number.parseInt(option("-p", "--port") ?? process.env.PORT ?? "3000", 10);
const hostname = option("-H", "--hostname") ?? process.env.HOSTNAME ?? "0.0.0.0";
// The kept pages are filled by asking this server itself (src/server/kept-pages/).
process.env.PORT = String(port);
process.env.NODE_ENV = "production";

// The same words src/env.ts accepts; src/env.ts reports a wrong value when the app starts.
const trustProxy = ["true", "1", "yes"].includes((process.env.TRUST_PROXY ?? "").trim().toLowerCase());

const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  if (!trustProxy) {
    // Whatever the client claimed is dropped; the peer of this connection is the client.
    delete req.headers["forwarded"];
    delete req.headers["x-real-ip"];
    req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
  }
  void handle(req, res);
});
server.on("upgrade", (req, socket, head) => void app.getUpgradeHandler()(req, socket, head));
server.listen(port, hostname, () => {
  console.log(`> Our World Services on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}${trustProxy ? " (client addresses from X-Forwarded-For: TRUST_PROXY)" : ""}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
