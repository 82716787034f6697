import { authRouter } from "@/server/api/routers/auth";
import { catalogueRouter } from "@/server/api/routers/catalogue";
import { createCallerFactory, createTRPCRouter } from "@/server/api/trpc";

/** Every domain router of the shop, registered once. */
export const appRouter = createTRPCRouter({
  auth: authRouter,
  catalogue: catalogueRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller: `createCaller(ctx).catalogue.list()`. */
export const createCaller = createCallerFactory(appRouter);
