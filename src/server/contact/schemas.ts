import { z } from "@/lib/zod";
import { messages } from "@/lib/messages";

const m = messages.contact;

/** The contact form's rules, shared by the form and the contact.send procedure. */
export const contactInput = z.object({
  name: z.string().trim().min(1, m.nameRequired).max(100, m.tooLong("Your name", 100)),
  email: z.string().trim().max(255, messages.auth.emailTooLong).pipe(z.email(messages.auth.invalidEmail)),
  phone: z
    .string()
    .trim()
    .max(30, m.tooLong("Your phone number", 30))
    .refine((value) => value === "" || /^\+?[0-9 ()-]{7,}$/.test(value), m.phoneInvalid)
    .optional(),
  message: z.string().trim().min(1, m.messageRequired).max(5000, m.tooLong("Your message", 5000)),
});
export type ContactInput = z.input<typeof contactInput>;

/** Admins: the message a live notice names (the live event carries its id only). */
export const messageNoticeInput = z.object({ id: z.uuid() });

/** Admins: mark a message read (or unread again). */
export const markReadInput = z.object({ id: z.uuid(), read: z.boolean() });
