import net from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outboxMessageId } from "@/server/mail/message-id";
import { renderMail } from "@/server/mail/render";
import type { MailShop } from "@/server/mail/schemas";
import { createSmtpTransport, parseSmtpUrl } from "@/server/platform/adapters/mail/smtp-transport";
import { createMailTransport, noMailTransport } from "@/server/platform/adapters/mail/transport";
import { MailSendError, type OutgoingMail } from "@/server/ports/mail";

/**
 * The SMTP adapter against a real SMTP server (smtp-server on 127.0.0.1, a random port, no TLS):
 * what arrives (envelope, headers, both parts), and how refusals and dead servers surface.
 */

interface Received {
  mailFrom: string | false;
  rcptTo: string[];
  user: string | undefined;
  raw: string;
}

const shop: MailShop = {
  name: "Our World Services",
  siteUrl: "https://shop.example.co.za",
  email: "hello@example.co.za",
  phone: "+27 11 555 0142",
  bank: { accountName: "Our World Services (Pty) Ltd", bankName: "First National Bank", accountNumber: "62812345678", branchCode: "250655", accountType: "Cheque" },
};

const PASSWORD = "s3cret:p@ss/word";
const received: Received[] = [];
const logins: { user: string | undefined; pass: string | null | undefined }[] = [];
/** What the server answers to DATA: accept, or refuse with this reply code. */
let refuseWith: number | undefined;
let server: SMTPServer;
let port: number;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    // No certificate in the test: the client must go on in plain text when STARTTLS is not offered.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ user: auth.username, pass: auth.password });
      if (auth.username === "orders@example.co.za" && auth.password === PASSWORD) callback(null, { user: auth.username });
      else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refuseWith !== undefined) {
          callback(Object.assign(new Error(refuseWith >= 500 ? "Message rejected as spam" : "Try again later"), { responseCode: refuseWith }));
          return;
        }
        received.push({
          mailFrom: session.envelope.mailFrom && session.envelope.mailFrom.address,
          rcptTo: session.envelope.rcptTo.map((address) => address.address),
          user: typeof session.user === "string" ? session.user : undefined,
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  server.on("error", () => {}); // a reset connection from a closed client is not a test failure
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  port = (server.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
  logins.length = 0;
  refuseWith = undefined;
});

function smtpUrl(password = PASSWORD): string {
  return `smtp://${encodeURIComponent("orders@example.co.za")}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
}

/** The header block of a raw message, unfolded, as name → value (first occurrence). */
function headers(raw: string): Map<string, string> {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? "";
  const map = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0 && !map.has(line.slice(0, colon).toLowerCase())) map.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return map;
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=) back to text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_match, encoding: string, text: string) => {
      if (encoding.toLowerCase() === "b") return Buffer.from(text, "base64").toString("utf8");
      const bytes = text.replace(/_/g, " ").replace(/=([0-9a-f]{2})/gi, (_hex, code: string) => `%${code}`);
      return decodeURIComponent(bytes.replace(/%(?![0-9a-f]{2})/gi, "%25"));
    });
}

/** The body of the multipart message's part of `contentType`, decoded from quoted-printable or base64. */
function partBody(raw: string, contentType: string): string | undefined {
  const boundary = /boundary="?([^";\s]+)"?/i.exec(headers(raw).get("content-type") ?? "")?.[1];
  if (!boundary) return undefined;
  const part = raw.split(`--${boundary}`).find((chunk) => new RegExp(`^\\s*Content-Type: ${contentType}`, "i").test(chunk));
  if (!part) return undefined;
  const [head = "", ...rest] = part.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
  const body = rest.join("\r\n\r\n").replace(/\r?\n$/, "");
  if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_hex, code: string) => String.fromCharCode(parseInt(code, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

async function outgoing(overrides: Partial<OutgoingMail> = {}): Promise<OutgoingMail> {
  const rendered = await renderMail(
    "order_received",
    { customerName: "Thandi Nkosi", reference: "ORD-4321", items: [{ name: "Beef pie", quantity: 2, unitPrice: 35 }], total: 70 },
    shop,
  );
  return {
    messageId: outboxMessageId(42, shop.siteUrl),
    from: "Our World Services <hello@example.co.za>",
    to: "thandi@example.com",
    subject: rendered.subject,
    html: rendered.html,
    text: rendered.text,
    ...overrides,
  };
}

describe("sending through a real SMTP server", () => {
  it("delivers a multipart mail with the given Message-ID, subject and envelope, logged in as the URL's user", async () => {
    const transport = createSmtpTransport(smtpUrl());
    expect(transport.kind).toBe("smtp");
    const mail = await outgoing();
    await transport.send(mail);

    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message?.rcptTo).toEqual(["thandi@example.com"]);
    expect(message?.mailFrom).toBe("hello@example.co.za");
    // The password was percent-encoded in the URL and reached the server decoded.
    expect(logins).toEqual([{ user: "orders@example.co.za", pass: PASSWORD }]);
    expect(message?.user).toBe("orders@example.co.za");

    const head = headers(message?.raw ?? "");
    expect(head.get("message-id")).toBe("<outbox-42@shop.example.co.za>");
    expect(decodeWords(head.get("subject") ?? "")).toBe("Order ORD-4321 received — Our World Services");
    expect(head.get("to")).toBe("thandi@example.com");
    expect(head.has("reply-to")).toBe(false);
    expect(head.get("content-type")).toMatch(/^multipart\/alternative;/);

    const text = partBody(message?.raw ?? "", "text/plain");
    const html = partBody(message?.raw ?? "", "text/html");
    expect(text).toContain("Hello Thandi Nkosi,");
    expect(text).toContain("Payment reference: ORD-4321");
    expect(text).not.toContain("<p");
    expect(html).toMatch(/^<!DOCTYPE html/);
    expect(html).toContain("ORD-4321");
    expect(html).toContain("Thandi Nkosi");
    expect(html).toMatch(/<\/html>$/);
  });

  it("attaches an order's booked times as a calendar file (.ics) in UTC, and words them in South African time", async () => {
    const transport = createSmtpTransport(smtpUrl());
    const rendered = await renderMail(
      "order_received",
      {
        customerName: "Lindiwe Mokoena",
        reference: "ORD-5150",
        items: [
          { name: "Office clean", quantity: 1, unitPrice: 900, startsAt: "2026-12-10T08:00:00+00:00", endsAt: "2026-12-10T10:00:00+00:00" },
          { name: "Beef pie", quantity: 2, unitPrice: 35 },
        ],
        total: 970,
      },
      shop,
    );
    expect(rendered.text).toContain("Office clean: Thu 10 Dec 2026, 10:00 to 12:00 (South African time).");
    expect(rendered.attachments).toHaveLength(1);
    await transport.send({ ...(await outgoing()), html: rendered.html, text: rendered.text, attachments: rendered.attachments });
    const raw = received.at(-1)?.raw ?? "";
    expect(headers(raw).get("content-type")).toMatch(/^multipart\/mixed;/);
    expect(raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=PUBLISH;/);
    expect(raw).toMatch(/Content-Disposition: attachment; filename=booking-ORD-5150\.ics/);
    const calendar = partBody(raw, "text/calendar");
    expect(calendar).toContain("BEGIN:VCALENDAR");
    expect(calendar).toContain("DTSTART:20261210T080000Z");
    expect(calendar).toContain("DTEND:20261210T100000Z");
    expect(calendar).toContain("SUMMARY:Office clean (Our World Services)");
    expect(calendar).toContain("UID:ORD-5150-1796889600000@shop.example.co.za");
  });

  it("sets Reply-To for a contact message, so the shop answers the visitor", async () => {
    const rendered = await renderMail("contact_message", { name: "Sipho", email: "sipho@example.com", phone: "", message: "Do you clean carpets?" }, shop);
    await createSmtpTransport(smtpUrl()).send({
      messageId: outboxMessageId(7, shop.siteUrl),
      from: "Our World Services <hello@example.co.za>",
      to: "orders@example.co.za",
      replyTo: rendered.replyTo,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
    });
    const head = headers(received[0]?.raw ?? "");
    expect(head.get("reply-to")).toBe("sipho@example.com");
    expect(head.get("message-id")).toBe("<outbox-7@shop.example.co.za>");
    expect(received[0]?.rcptTo).toEqual(["orders@example.co.za"]);
  });

  it("sends from MAIL_FROM when it is set, whatever the mail says", async () => {
    await createSmtpTransport(smtpUrl(), "Our World Orders <orders@example.co.za>").send(await outgoing());
    expect(received[0]?.mailFrom).toBe("orders@example.co.za");
    expect(headers(received[0]?.raw ?? "").get("from")).toBe("Our World Orders <orders@example.co.za>");
  });

  it("sends the same Message-ID again for the same outbox row (a retry is the same message)", async () => {
    const transport = createSmtpTransport(smtpUrl());
    await transport.send(await outgoing());
    await transport.send(await outgoing());
    expect(received.map((message) => headers(message.raw).get("message-id"))).toEqual(["<outbox-42@shop.example.co.za>", "<outbox-42@shop.example.co.za>"]);
  });
});

describe("failures reject, saying what failed, without the password", () => {
  it("a server that refuses the mail with 451 (transient)", async () => {
    refuseWith = 451;
    const failure = await createSmtpTransport(smtpUrl())
      .send(await outgoing())
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MailSendError);
    const error = failure as MailSendError;
    expect(error.message).toContain(`smtp://127.0.0.1:${port}`);
    expect(error.message).toContain("451");
    expect(error.message).not.toContain(PASSWORD);
    expect(error.message).not.toContain(encodeURIComponent(PASSWORD));
    expect(error.responseCode).toBe(451);
    expect(error.permanent).toBe(false);
    expect(received).toHaveLength(0);
  });

  it("a server that refuses the mail with 550 (permanent)", async () => {
    refuseWith = 550;
    const failure = (await createSmtpTransport(smtpUrl())
      .send(await outgoing())
      .catch((error: unknown) => error)) as MailSendError;
    expect(failure).toBeInstanceOf(MailSendError);
    expect(failure.responseCode).toBe(550);
    expect(failure.permanent).toBe(true);
  });

  it("a wrong password: never permanent (the same mail goes once SMTP_URL is fixed)", async () => {
    const failure = (await createSmtpTransport(smtpUrl("wrong-password"))
      .send(await outgoing())
      .catch((error: unknown) => error)) as MailSendError;
    expect(failure).toBeInstanceOf(MailSendError);
    expect(failure.code).toBe("EAUTH");
    expect(failure.permanent).toBe(false);
    expect(failure.message).not.toContain("wrong-password");
  });

  it("a port nobody listens on, quickly", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve()));
    const deadPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const started = Date.now();
    const failure = (await createSmtpTransport(`smtp://orders:${encodeURIComponent(PASSWORD)}@127.0.0.1:${deadPort}`)
      .send(await outgoing())
      .catch((error: unknown) => error)) as MailSendError;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(failure).toBeInstanceOf(MailSendError);
    expect(failure.message).toContain(`smtp://127.0.0.1:${deadPort}`);
    expect(failure.message).toMatch(/ECONNREFUSED/);
    expect(failure.message).not.toContain(PASSWORD);
    expect(failure.permanent).toBe(false);
  });

  it("a Message-ID that is not <id@host>, before connecting", async () => {
    for (const messageId of ["outbox-1@shop", "<outbox-1>", "<a@b>\r\nBcc: x@example.com"]) {
      await expect(createSmtpTransport(smtpUrl()).send(await outgoing({ messageId }))).rejects.toThrow(MailSendError);
    }
    expect(logins).toHaveLength(0);
  });
});

describe("SMTP_URL", () => {
  it("reads smtp:// and smtps:// with their default ports and decoded credentials", () => {
    expect(parseSmtpUrl("smtp://user:p%40ss@mail.example.co.za")).toEqual({
      secure: false,
      host: "mail.example.co.za",
      port: 587,
      user: "user",
      pass: "p@ss",
      label: "smtp://mail.example.co.za:587",
    });
    expect(parseSmtpUrl("smtps://mail.example.co.za")).toEqual({ secure: true, host: "mail.example.co.za", port: 465, label: "smtps://mail.example.co.za:465" });
    expect(parseSmtpUrl("smtp://[::1]:2525")).toMatchObject({ host: "::1", port: 2525, label: "smtp://[::1]:2525" });
  });

  it("refuses anything else without repeating the URL", () => {
    for (const url of ["http://user:hunter22@mail.example.co.za", "not a url hunter22", "smtp://user:hunter22@mail.example.co.za:587?pool=true", "smtp://user:hunter22@host/x"]) {
      expect(() => parseSmtpUrl(url)).toThrow(/SMTP_URL/);
      try {
        parseSmtpUrl(url);
      } catch (error) {
        expect((error as Error).message).not.toContain("hunter22");
      }
    }
  });

  it("chooses SMTP when set and 'none' otherwise; 'none' never pretends to send", async () => {
    expect(createMailTransport({ SMTP_URL: smtpUrl() }).kind).toBe("smtp");
    expect(createMailTransport({}).kind).toBe("none");
    expect(createMailTransport({ SMTP_URL: undefined, MAIL_FROM: "x@example.com" })).toBe(noMailTransport);
    await expect(noMailTransport.send(await outgoing())).rejects.toThrow(/no SMTP server is configured/);
  });
});

describe("outboxMessageId", () => {
  it("is stable per row and names the shop's host", () => {
    expect(outboxMessageId(42, "https://shop.example.co.za/")).toBe("<outbox-42@shop.example.co.za>");
    expect(outboxMessageId("42", "https://shop.example.co.za:8443/x")).toBe("<outbox-42@shop.example.co.za>");
    expect(outboxMessageId(9n, "http://localhost:3000")).toBe("<outbox-9@localhost>");
    expect(outboxMessageId("0b6f3a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "http://[::1]:3000")).toBe("<outbox-0b6f3a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b@--1>");
    expect(() => outboxMessageId("1>\r\nBcc: x", "https://shop.example.co.za")).toThrow(RangeError);
  });
});
