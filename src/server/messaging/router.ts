import { messages } from "@/lib/messages";
import { createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { myConsents, setConsent } from "./consents";
import { consentInput } from "./schemas";

/** A customer's messaging consents (issue 40): read their own; tick or untick one choice. */
export const messagingRouter = createTRPCRouter({
  myConsents: signedInProcedure.meta({ failure: messages.consent.loadFailed }).query(myConsents),
  setConsent: signedInProcedure.meta({ failure: messages.consent.failed }).input(consentInput).mutation(setConsent),
});
