import { MailSendError, type MailTransport } from "@/server/ports/mail";
import { createSmtpTransport } from "./smtp-transport";

/**
 * The mail transport for this configuration: SMTP when SMTP_URL is set, in every run mode
 * (Supabase's own SMTP sends only its auth mail); otherwise "none". For the composition point.
 */
export function createMailTransport(config: { SMTP_URL?: string | undefined; MAIL_FROM?: string | undefined }): MailTransport {
  return config.SMTP_URL ? createSmtpTransport(config.SMTP_URL, config.MAIL_FROM) : noMailTransport;
}

/**
 * No SMTP server configured: the outbox keeps the mails for admins to see, and the worker should
 * not call send (kind "none"). If it does, the send fails rather than pretend.
 */
export const noMailTransport: MailTransport = {
  kind: "none",
  send: () => Promise.reject(new MailSendError("No mail sent: no SMTP server is configured (SMTP_URL).", false, "ENOTCONFIGURED")),
};
