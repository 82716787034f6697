import { adminOrdersRouter } from "@/server/orders/router";
import { adminProductsRouter } from "@/server/products/router";
import { authRouter } from "@/server/auth/router";
import { bookingsRouter } from "@/server/bookings/router";
import { cartRouter } from "@/server/cart/router";
import { catalogueRouter } from "@/server/catalogue/router";
import { checkoutRouter } from "@/server/checkout/router";
import { contactRouter } from "@/server/contact/router";
import { invoicesRouter } from "@/server/invoices/router";
import { fulfilmentRouter } from "@/server/fulfilment/router";
import { liveRouter } from "@/server/live/router";
import { mailRouter } from "@/server/mail/router";
import { messagingRouter } from "@/server/messaging/router";
import { ordersRouter } from "@/server/orders/router";
import { paymentsRouter } from "@/server/payments/router";
import { overviewRouter } from "@/server/overview/router";
import { profileRouter } from "@/server/profile/router";
import { adminQuotesRouter, quotesRouter } from "@/server/quotes/router";
import { settingsRouter } from "@/server/settings/router";
import { stockNoticesRouter } from "@/server/stock-notices/router";
import { createCallerFactory, createTRPCRouter } from "@/server/api/trpc";

/** Every domain router of the shop, registered once. */
export const appRouter = createTRPCRouter({
  adminOrders: adminOrdersRouter,
  adminProducts: adminProductsRouter,
  adminQuotes: adminQuotesRouter,
  auth: authRouter,
  bookings: bookingsRouter,
  catalogue: catalogueRouter,
  cart: cartRouter,
  checkout: checkoutRouter,
  contact: contactRouter,
  invoices: invoicesRouter,
  fulfilment: fulfilmentRouter,
  live: liveRouter,
  mail: mailRouter,
  messaging: messagingRouter,
  orders: ordersRouter,
  payments: paymentsRouter,
  overview: overviewRouter,
  profile: profileRouter,
  quotes: quotesRouter,
  settings: settingsRouter,
  stockNotices: stockNoticesRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller: `createCaller(ctx).catalogue.list()`. */
export const createCaller = createCallerFactory(appRouter);
