import { adminProcedure, createTRPCRouter } from "@/server/api/trpc";
import { salesRange, salesSummary } from "./overview";
import { overviewRangeInput } from "./schemas";

/** The sales overview (admins; the SQL functions check again). The CSV is a route: src/app/admin/overview/export. */
export const overviewRouter = createTRPCRouter({
  summary: adminProcedure.query(salesSummary),
  range: adminProcedure.input(overviewRangeInput).query(salesRange),
});
