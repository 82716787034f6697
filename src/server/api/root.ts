import { adminOrdersRouter } from "@/server/api/routers/admin-orders";
import { adminProductsRouter } from "@/server/api/routers/admin-products";
import { authRouter } from "@/server/api/routers/auth";
import { cartRouter } from "@/server/api/routers/cart";
import { catalogueRouter } from "@/server/api/routers/catalogue";
import { checkoutRouter } from "@/server/api/routers/checkout";
import { contactRouter } from "@/server/api/routers/contact";
import { liveRouter } from "@/server/api/routers/live";
import { ordersRouter } from "@/server/api/routers/orders";
import { profileRouter } from "@/server/api/routers/profile";
import { createCallerFactory, createTRPCRouter } from "@/server/api/trpc";

/** Every domain router of the shop, registered once. */
export const appRouter = createTRPCRouter({
  adminOrders: adminOrdersRouter,
  adminProducts: adminProductsRouter,
  auth: authRouter,
  catalogue: catalogueRouter,
  cart: cartRouter,
  checkout: checkoutRouter,
  contact: contactRouter,
  live: liveRouter,
  orders: ordersRouter,
  profile: profileRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller: `createCaller(ctx).catalogue.list()`. */
export const createCaller = createCallerFactory(appRouter);
