import { messages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter, publicProcedure } from "@/server/api/trpc";
import { goLiveStatus } from "./go-live";
import { getSettings, updateSettings } from "./manage-settings";
import { publishedSettings } from "./published";
import { shopSettingsInput } from "./schemas";

/** Shop settings: everything for admins (RLS checks again); what pages show for everyone. */
export const settingsRouter = createTRPCRouter({
  get: adminProcedure.query(getSettings),
  update: adminProcedure.meta({ failure: messages.settings.saveFailed }).input(shopSettingsInput).mutation(updateSettings),
  published: publicProcedure.query(publishedSettings),
  /** The go-live checklist: which settings are still demo values or missing (names only, never a value of the environment). */
  goLive: adminProcedure.query(goLiveStatus),
});
