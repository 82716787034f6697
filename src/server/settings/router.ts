import { adminProcedure, createTRPCRouter, publicProcedure } from "@/server/api/trpc";
import { getSettings, updateSettings } from "./manage-settings";
import { publishedSettings } from "./published";
import { shopSettingsInput } from "./schemas";

/** Shop settings: everything for admins (RLS checks again); what pages show for everyone. */
export const settingsRouter = createTRPCRouter({
  get: adminProcedure.query(getSettings),
  update: adminProcedure.input(shopSettingsInput).mutation(updateSettings),
  published: publicProcedure.query(publishedSettings),
});
