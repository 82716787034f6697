import type net from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

/** A mail as a real SMTP server received it: the envelope and the parsed message. */
export interface ReceivedMail {
  rcptTo: string[];
  messageId: string | undefined;
  subject: string;
  replyTo: string | undefined;
  text: string;
  html: string;
  parsed: ParsedMail;
}

export interface TestSmtp {
  port: number;
  /** SMTP_URL for this server. */
  url: string;
  received: ReceivedMail[];
  /** "accept" takes every mail; "refuse" answers DATA with 451 (try later), as a busy server does. */
  mode: "accept" | "refuse";
  /** How many mails were answered with 451 ("refuse"). */
  refused: number;
  /**
   * In "accept", how long the server holds its answer to DATA after it has the mail (a slow or
   * distant server): a sender that dies meanwhile has delivered the mail without knowing it.
   */
  delayMs: number;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on 127.0.0.1 at a random port or `port`, no TLS,
 * any login accepted: what the shop's mails look like when they arrive.
 */
export async function startTestSmtp(options: { port?: number } = {}): Promise<TestSmtp> {
  const smtp: Omit<TestSmtp, "port" | "url" | "close"> = { received: [], mode: "accept", refused: 0, delayMs: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (smtp.mode === "refuse") {
          smtp.refused++;
          callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
          return;
        }
        void simpleParser(Buffer.concat(chunks)).then((parsed) => {
          smtp.received.push({
            rcptTo: session.envelope.rcptTo.map((address) => address.address),
            messageId: parsed.messageId,
            subject: parsed.subject ?? "",
            replyTo: parsed.replyTo?.value[0]?.address,
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            parsed,
          });
          if (smtp.delayMs > 0) setTimeout(() => callback(), smtp.delayMs);
          else callback();
        }, callback);
      });
    },
  });
  // A client killed mid-conversation (the fault script kills -9 the shop during delivery) resets its
  // connection; smtp-server emits that as 'error', which without a listener would end the process.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET" && error.code !== "EPIPE") console.error("[test smtp]", error.message);
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as net.AddressInfo).port;
  return Object.assign(smtp, {
    port,
    url: `smtp://shop:secret@127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
