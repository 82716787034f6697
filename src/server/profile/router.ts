import { byCaller } from "@/server/api/middlewares/caller-keys";
import { rateLimited } from "@/server/api/middlewares/rate-limit";
import { createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { exportMyData } from "./export-data";
import { deleteAccount, uploadAvatar } from "./manage-profile";
import { changeEmail, changePassword } from "@/server/auth/account-recovery";
import { changeEmailInput, changePasswordInput } from "@/server/auth/schemas";
import { avatarInput } from "./schemas";

export const profileRouter = createTRPCRouter({
  uploadAvatar: signedInProcedure.input(avatarInput).mutation(uploadAvatar),
  deleteAccount: signedInProcedure.mutation(deleteAccount),
  /** "Change password": the current one is checked; every other session ends. */
  changePassword: signedInProcedure.input(changePasswordInput).mutation(changePassword),
  /** "Change e-mail": a confirmation link to the new address (the old one is told). */
  changeEmail: signedInProcedure.input(changeEmailInput).mutation(changeEmail),
  /** "Download my data" (POPIA): everything held about the caller; a few a day per customer. */
  exportData: signedInProcedure.use(rateLimited((limits) => limits.dataExport, byCaller)).query(exportMyData),
});
