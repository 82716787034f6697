/** One rendered mail, addressed, as the outbox worker hands it to a transport. */
export interface OutgoingMail {
  /**
   * The Message-ID header, angle brackets included (`<outbox-42@shop.example>`). Stable per
   * outbox row, so a mail sent twice after a crash (delivery is at least once) is one message
   * to the recipient's client.
   */
  messageId: string;
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  /** Files with it (an order's bookings as a calendar file). */
  attachments?: { filename: string; contentType: string; content: string }[];
}

/**
 * Sends mail (docs/architecture.md#ports-and-the-platform, #mail-outbox): SMTP when `SMTP_URL` is set, otherwise "none", in every run
 * mode (Supabase's own SMTP only sends auth mail). The outbox worker is the only caller.
 */
export interface MailTransport {
  /** "none": nothing is configured; the outbox only shows the mails to admins and nothing is sent. */
  readonly kind: "smtp" | "none";
  /** Resolves once the server accepted the mail; rejects with a MailSendError otherwise. */
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * A mail the transport could not hand over. The message says what failed and never carries
 * credentials; `permanent` is true when the server refused the mail itself (a 5xx reply), so
 * sending the same mail again would get the same answer.
 */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly code?: string,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = "MailSendError";
  }
}
