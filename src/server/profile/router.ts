import { byCaller } from "@/server/api/middlewares/caller-keys";
import { rateLimited } from "@/server/api/middlewares/rate-limit";
import { createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { exportMyData } from "./export-data";
import { deleteAccount, uploadAvatar } from "./manage-profile";
import { avatarInput } from "./schemas";

export const profileRouter = createTRPCRouter({
  uploadAvatar: signedInProcedure.input(avatarInput).mutation(uploadAvatar),
  deleteAccount: signedInProcedure.mutation(deleteAccount),
  /** "Download my data" (POPIA): everything held about the caller; a few a day per customer. */
  exportData: signedInProcedure.use(rateLimited((limits) => limits.dataExport, byCaller)).query(exportMyData),
});
