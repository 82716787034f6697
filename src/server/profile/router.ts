import { accountMessages, messages } from "@/lib/messages";
import { byCaller } from "@/server/api/middlewares/caller-keys";
import { rateLimited } from "@/server/api/middlewares/rate-limit";
import { createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { exportMyData } from "./export-data";
import { deleteAccount, uploadAvatar } from "./manage-profile";
import { changeEmail, changePassword } from "@/server/auth/account-recovery";
import { changeEmailInput, changePasswordInput } from "@/server/auth/schemas";
import { avatarInput } from "./schemas";

export const profileRouter = createTRPCRouter({
  uploadAvatar: signedInProcedure.meta({ failure: messages.profile.uploadFailed }).input(avatarInput).mutation(uploadAvatar),
  deleteAccount: signedInProcedure.meta({ failure: messages.profile.deleteFailed }).mutation(deleteAccount),
  /** "Change password": the current one is checked; every other session ends. */
  changePassword: signedInProcedure.meta({ failure: accountMessages.changePasswordFailed }).input(changePasswordInput).mutation(changePassword),
  /** "Change e-mail": a confirmation link to the new address (the old one is told). */
  changeEmail: signedInProcedure.meta({ failure: accountMessages.emailChangeFailed }).input(changeEmailInput).mutation(changeEmail),
  /** "Download my data" (POPIA): everything held about the caller; a few a day per customer. */
  exportData: signedInProcedure.use(rateLimited((limits) => limits.dataExport, byCaller)).query(exportMyData),
});
