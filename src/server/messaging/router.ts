import { messages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { myConsents, setConsent } from "./consents";
import { getWhatsAppSettings, updateWhatsAppSettings } from "./manage-whatsapp-settings";
import { consentInput, whatsappSettingsInput } from "./schemas";

/**
 * A customer's messaging consents (issue 40): read their own; tick or untick one choice. Admins:
 * WhatsApp's settings in Shop settings (never the token or secrets back).
 */
export const messagingRouter = createTRPCRouter({
  myConsents: signedInProcedure.meta({ failure: messages.consent.loadFailed }).query(myConsents),
  setConsent: signedInProcedure.meta({ failure: messages.consent.failed }).input(consentInput).mutation(setConsent),
  settings: adminProcedure.meta({ failure: messages.settings.loadFailed }).query(getWhatsAppSettings),
  updateSettings: adminProcedure.meta({ failure: messages.whatsappSettings.saveFailed }).input(whatsappSettingsInput).mutation(updateWhatsAppSettings),
});
