import { createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { deleteAccount, uploadAvatar } from "./manage-profile";
import { avatarInput } from "./schemas";

export const profileRouter = createTRPCRouter({
  uploadAvatar: signedInProcedure.input(avatarInput).mutation(uploadAvatar),
  deleteAccount: signedInProcedure.mutation(deleteAccount),
});
