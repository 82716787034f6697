import nodemailer, { type NodemailerError, type SMTPTransportOptions } from "nodemailer";
import { MailSendError, type MailTransport, type OutgoingMail } from "@/server/ports/mail";

/** Where an SMTP_URL points, with its credentials apart so they never reach a message. */
export interface SmtpTarget {
  /** true for smtps:// (TLS from the first byte, port 465); false for smtp:// (STARTTLS when offered). */
  secure: boolean;
  host: string;
  port: number;
  user?: string;
  pass?: string;
  /** `smtp://host:port`, safe to log and to put in error messages. */
  label: string;
}

/**
 * Reads `smtp://user:pass@host:587` or `smtps://user:pass@host:465` (user and password
 * percent-encoded, as in any URL). Throws an Error that never repeats the URL, which holds a
 * password.
 */
export function parseSmtpUrl(url: string): SmtpTarget {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error("SMTP_URL is not a URL; expected smtp://user:pass@host:587 or smtps://user:pass@host:465.");
  }
  const scheme = parsed.protocol.toLowerCase();
  if (scheme !== "smtp:" && scheme !== "smtps:") {
    throw new Error("SMTP_URL must start with smtp:// (STARTTLS) or smtps:// (TLS).");
  }
  // IPv6 literals come bracketed from URL; sockets want them bare.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host) throw new Error("SMTP_URL names no host.");
  if (parsed.search || (parsed.pathname && parsed.pathname !== "/")) {
    // Nodemailer would read query parameters as options (pool=true, tls.*): refuse rather than ignore.
    throw new Error("SMTP_URL takes no path or query parameters.");
  }
  const secure = scheme === "smtps:";
  const port = parsed.port ? Number(parsed.port) : secure ? 465 : 587;
  const target: SmtpTarget = { secure, host, port, label: `${scheme}//${parsed.hostname}:${port}` };
  if (parsed.username) target.user = safeDecode(parsed.username);
  if (parsed.password) target.pass = safeDecode(parsed.password);
  return target;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** How long a dead or silent server may keep a send waiting (ms). */
export const SMTP_TIMEOUTS = {
  /** Opening the TCP connection, DNS included. */
  connection: 10_000,
  /** The server's 220 greeting (and a STARTTLS upgrade). */
  greeting: 10_000,
  /** Silence in the middle of a conversation. */
  socket: 30_000,
  dns: 10_000,
} as const;

/** A Message-ID as RFC 5322 writes it: `<left@right>`, nothing that could break the header. */
const MESSAGE_ID = /^<[^<>@\s]+@[^<>@\s]+>$/;

/**
 * The SMTP adapter of the mail port (docs/architecture.md#mail-outbox). `url` is SMTP_URL; `from`, when given
 * (MAIL_FROM), is the From of every mail instead of the one the mail carries, because providers
 * only relay mail from the mailbox the account owns. One connection per mail, no pool: the outbox
 * worker sends a few mails a minute, and a pooled socket would outlive a failed send.
 */
export function createSmtpTransport(url: string, from?: string): MailTransport {
  const target = parseSmtpUrl(url);
  const options: SMTPTransportOptions = {
    host: target.host,
    port: target.port,
    secure: target.secure,
    // smtp:// upgrades with STARTTLS whenever the server offers it (nodemailer's default);
    // the TLS certificate is always verified.
    auth: target.user !== undefined ? { user: target.user, pass: target.pass ?? "" } : undefined,
    connectionTimeout: SMTP_TIMEOUTS.connection,
    greetingTimeout: SMTP_TIMEOUTS.greeting,
    socketTimeout: SMTP_TIMEOUTS.socket,
    dnsTimeout: SMTP_TIMEOUTS.dns,
    pool: false,
    logger: false,
    // The mails are rendered strings: nothing in them may make nodemailer read a file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  const transporter = nodemailer.createTransport(options);

  return {
    kind: "smtp",
    async send(mail: OutgoingMail): Promise<void> {
      if (!MESSAGE_ID.test(mail.messageId)) {
        throw new MailSendError("Mail not sent: the Message-ID must look like <id@host>.", true, "EMESSAGEID");
      }
      try {
        await transporter.sendMail({
          messageId: mail.messageId,
          from: from ?? mail.from,
          to: mail.to,
          replyTo: mail.replyTo,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          attachments: mail.attachments?.map((file) => ({ filename: file.filename, contentType: file.contentType, content: file.content })),
        });
      } catch (error) {
        throw sendError(error, target);
      }
    },
  };
}

/** The transport's failure as a MailSendError: where it went wrong and what the server said. */
function sendError(error: unknown, target: SmtpTarget): MailSendError {
  const failure: NodemailerError = error instanceof Error ? error : new Error(String(error));
  const code = typeof failure.code === "string" ? failure.code : undefined;
  let message = `Sending mail through ${target.label} failed: ${failure.message}`;
  if (code) message += ` (${code}${failure.originalCode ? `/${failure.originalCode}` : ""})`;
  // Servers do not echo passwords, but an error text is no place to find out. (A password too
  // short to be worth the name would turn every matching letter into stars, so it is left be.)
  if (target.pass && target.pass.length >= 4) {
    for (const secret of new Set([target.pass, encodeURIComponent(target.pass)])) message = message.split(secret).join("***");
  }
  // A refused login is a configuration fault, not this mail's: after SMTP_URL is fixed the same
  // mail goes through, so it is never permanent, whatever reply code the server used.
  const authProblem = code === "EAUTH" || code === "ENOAUTH";
  return new MailSendError(message, !authProblem && failure.permanent === true, code, failure.responseCode);
}
