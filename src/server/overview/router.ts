import { overviewMessages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter } from "@/server/api/trpc";
import { quoteFigures, salesRange, salesSummary } from "./overview";
import { overviewRangeInput } from "./schemas";

/** The sales overview (admins; the SQL functions check again). The CSV is a route: src/app/admin/overview/export. */
export const overviewRouter = createTRPCRouter({
  summary: adminProcedure.meta({ failure: overviewMessages.loadFailed }).query(salesSummary),
  range: adminProcedure.meta({ failure: overviewMessages.loadFailed }).input(overviewRangeInput).query(salesRange),
  /** Quotes sent and accepted in the range, and their value. */
  quotes: adminProcedure.meta({ failure: overviewMessages.loadFailed }).input(overviewRangeInput).query(quoteFigures),
});
