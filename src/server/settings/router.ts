import { adminProcedure, createTRPCRouter } from "@/server/api/trpc";
import { getSettings, updateSettings } from "./manage-settings";
import { shopSettingsInput } from "./schemas";

/** Shop settings (admins only; RLS checks again). Everyone else reads the published ones through the catalogue. */
export const settingsRouter = createTRPCRouter({
  get: adminProcedure.query(getSettings),
  update: adminProcedure.input(shopSettingsInput).mutation(updateSettings),
});
