/**
 * A messaging channel beside mail (docs/architecture.md#messaging-channels-and-consent,
 * docs/whatsapp.md): WhatsApp Business Cloud API template messages. The outbox worker is the only
 * caller; it has checked the customer's consent for the row just before.
 */
export interface OutgoingTemplate {
  /** E.164 (+27821234567), from the customer's live consent, never from the outbox row. */
  to: string;
  /** An approved template's name and language (src/server/messaging/templates.ts). */
  name: string;
  language: string;
  /** The body's {{1}}, {{2}}, … in order. */
  parameters: string[];
  /** The outbox row's id: sent with the message (biz_opaque_callback_data) and echoed in its statuses. */
  idempotencyKey: string;
}

/** A free-form text: only as a reply within WhatsApp's 24-hour window (the STOP confirmation). */
export interface OutgoingText {
  to: string;
  text: string;
  idempotencyKey: string;
}

export interface MessagingChannel {
  readonly kind: "whatsapp";
  /** Resolves with WhatsApp's message id once it accepted the message; rejects with a MessagingSendError. */
  sendTemplate(message: OutgoingTemplate): Promise<{ messageId: string }>;
  sendText(message: OutgoingText): Promise<{ messageId: string }>;
}

/**
 * A message the channel could not hand over. The message says what failed, never the token;
 * `permanent` when the API refused this message itself (a 4xx other than 429: a bad number, a
 * template not approved), so sending it again would get the same answer.
 */
export class MessagingSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "MessagingSendError";
  }
}

/** WHATSAPP_* as the server's environment sets them (each may be missing), and Meta's address (tests: a fake). */
export interface WhatsAppEnvironment {
  phoneNumberId?: string;
  accessToken?: string;
  appSecret?: string;
  verifyToken?: string;
  apiUrl?: string;
  apiVersion?: string;
}

/** The WhatsApp settings in force (docs/whatsapp.md: Shop settings, else the environment); all four secrets or none. */
export interface WhatsAppSettings {
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  /** Meta's Graph API unless a test points it at a fake. */
  apiUrl?: string;
  apiVersion?: string;
}
