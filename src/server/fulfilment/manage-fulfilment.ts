import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { sqlState } from "@/server/db/sql-errors";
import {
  addClosedDay,
  deactivateDeliveryArea,
  listClosedDays,
  listDeliveryAreas,
  listLeadTimes,
  readFulfilmentSettings,
  removeClosedDay,
  saveDeliveryArea,
  saveFulfilmentSettings,
  setDailyLimit,
  setLeadTime,
  type FulfilmentSettings,
} from "./fulfilment-queries";

const m = messages.fulfilment;

type Ctx = Pick<TRPCContext, "db" | "catalogue" | "settings">;

/** fulfilment.settings: the section of Shop settings (admins; RLS checks again). */
export async function getFulfilmentSettings({ ctx }: { ctx: Ctx }) {
  return ctx.db.transaction(async (trx) => ({
    settings: await readFulfilmentSettings(trx),
    areas: await listDeliveryAreas(trx, { activeOnly: false }),
    closedDays: await listClosedDays(trx),
  }));
}

export async function updateFulfilmentSettings({ ctx, input }: { ctx: Ctx; input: FulfilmentSettings }) {
  const saved = await ctx.db.transaction((trx) => saveFulfilmentSettings(trx, input));
  if (!saved) throw new TRPCError({ code: "FORBIDDEN", message: m.settingsSaveFailed });
  // The opening hours are in the published settings and the kept pages (footer, contact page):
  // this process drops them at once, the others hear opening_hours' NOTIFY.
  ctx.settings.changed();
  ctx.catalogue.changed();
  return { message: m.settingsSaved };
}

export async function saveArea({ ctx, input }: { ctx: Ctx; input: { id?: string; name: string; fee: string; minimumOrder: string } }) {
  try {
    const area = await ctx.db.transaction((trx) => saveDeliveryArea(trx, { ...input, minimumOrder: input.minimumOrder === "" ? null : input.minimumOrder }));
    if (!area) throw new TRPCError({ code: "NOT_FOUND", message: m.areaUnknown });
    return { id: area.id, message: m.areaSaved(area.name) };
  } catch (error) {
    if (error instanceof TRPCError) throw error;
    if (sqlState(error) === "23505") throw new TRPCError({ code: "CONFLICT", message: m.areaExists(input.name), cause: error });
    throw error;
  }
}

/** Removing an area deactivates it: past orders keep pointing at it, checkout no longer offers it. */
export async function removeArea({ ctx, input }: { ctx: Ctx; input: { id: string } }) {
  const area = await ctx.db.transaction((trx) => deactivateDeliveryArea(trx, input.id));
  if (!area) throw new TRPCError({ code: "NOT_FOUND", message: m.areaUnknown });
  return { message: m.areaRemoved(area.name) };
}

export async function addClosed({ ctx, input }: { ctx: Ctx; input: { day: string; reason: string } }) {
  await ctx.db.transaction((trx) => addClosedDay(trx, input)).catch((cause: unknown) => {
    throw new TRPCError({ code: "BAD_REQUEST", message: m.closedDayInvalid, cause });
  });
  return { message: m.closedDayAdded(input.day) };
}

export async function removeClosed({ ctx, input }: { ctx: Ctx; input: { day: string } }) {
  const removed = await ctx.db.transaction((trx) => removeClosedDay(trx, input.day));
  if (!removed) throw new TRPCError({ code: "NOT_FOUND", message: m.closedDayInvalid });
  return { message: m.closedDayRemoved(input.day) };
}

/** fulfilment.leadTimes: the product dashboard's lead times and daily limits. */
export function leadTimes({ ctx }: { ctx: Ctx }) {
  return ctx.db.transaction((trx) => listLeadTimes(trx));
}

export async function updateLeadTime({ ctx, input }: { ctx: Ctx; input: { productId: string; days: number } }) {
  const product = await ctx.db.transaction((trx) => setLeadTime(trx, input.productId, input.days));
  if (!product) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });
  ctx.catalogue.changed();
  return { message: m.leadTimeSaved(product.name, input.days) };
}

export async function updateDailyLimit({ ctx, input }: { ctx: Ctx; input: { categoryId: string; limit: number | null } }) {
  const category = await ctx.db.transaction((trx) => setDailyLimit(trx, input.categoryId, input.limit));
  if (!category) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.emptyCategory });
  ctx.catalogue.changed();
  return { message: m.dailyLimitSaved(category.name, input.limit) };
}
