import { WEEKDAYS } from "@/lib/days";
import { messages, openingHoursMessages } from "@/lib/messages";
import { z } from "@/lib/zod";

const m = messages.fulfilment;

/** A calendar day as the shop names it (South African time): YYYY-MM-DD. */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const dayText = z.string().regex(DAY, m.dayUnavailable);

/**
 * How and when the customer wants the order (place_order's p_fulfilment; SQL checks it against
 * the settings and the day offer, so this only keeps the shape).
 */
export const fulfilmentChoice = z.discriminatedUnion("method", [
  z.object({
    method: z.literal("delivery"),
    day: dayText,
    areaId: z.uuid(m.areaUnknown),
    address: z.string().trim().min(5, m.addressRequired).max(300, m.addressTooLong),
    keepAddress: z.boolean().default(false),
  }),
  z.object({ method: z.literal("collection"), day: dayText }),
]);
export type FulfilmentChoice = z.output<typeof fulfilmentChoice>;

/** A rand amount as typed, 0 or more (a free area). */
const feeText = z
  .string()
  .trim()
  .regex(/^\d{1,10}(\.\d{1,2})?$/, m.feeInvalid);

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeText = z.string().regex(TIME, openingHoursMessages.timeInvalid);

/** One weekday's hours (opening_hours' row; the table checks the same order). */
export const openingDayInput = z
  .object({ weekday: z.int().min(1).max(7), open: z.boolean(), opens: timeText, closes: timeText })
  .superRefine((day, context) => {
    if (day.opens >= day.closes) context.addIssue({ code: "custom", path: ["closes"], message: openingHoursMessages.closesBeforeOpens(WEEKDAYS[day.weekday - 1] ?? "") });
  });

/** The week: each ISO weekday once (1 Monday ... 7 Sunday), at least one open. */
export const openingHoursInput = z
  .array(openingDayInput)
  .length(7, openingHoursMessages.weekInvalid)
  .refine((days) => new Set(days.map((day) => day.weekday)).size === 7, openingHoursMessages.weekInvalid)
  .refine((days) => days.some((day) => day.open), openingHoursMessages.noOpenDay);

/** The settings section of Shop settings (admins). */
export const fulfilmentSettingsInput = z
  .object({
    collectionEnabled: z.boolean(),
    collectionAddress: z.string().trim().max(300),
    cutoffTime: z.string().regex(TIME, m.cutoffInvalid),
    openingHours: openingHoursInput,
  })
  .refine((values) => !values.collectionEnabled || values.collectionAddress !== "", { message: m.collectionAddressRequired, path: ["collectionAddress"] });
export type FulfilmentSettingsInput = z.input<typeof fulfilmentSettingsInput>;

/** Adding (no id) or changing a delivery area. */
export const deliveryAreaInput = z.object({
  id: z.uuid().optional(),
  name: z.string().trim().min(1, m.areaNameRequired).max(100, m.areaNameRequired),
  fee: feeText,
  /** Blank: no minimum. */
  minimumOrder: z
    .string()
    .trim()
    .refine((value) => value === "" || (/^\d{1,10}(\.\d{1,2})?$/.test(value) && Number(value) > 0), m.minimumInvalid),
});
export type DeliveryAreaInput = z.input<typeof deliveryAreaInput>;

export const deliveryAreaIdInput = z.object({ id: z.uuid(m.areaUnknown) });

export const closedDayInput = z.object({
  day: z.string().regex(DAY, m.closedDayInvalid),
  reason: z.string().trim().min(1, m.closedDayInvalid).max(100, m.closedDayInvalid),
});
export type ClosedDayInput = z.input<typeof closedDayInput>;
export const closedDayKeyInput = z.object({ day: z.string().regex(DAY, m.closedDayInvalid) });

/** Product dashboard: a product's lead time. */
export const leadTimeInput = z.object({ productId: z.uuid(messages.catalogue.productNotFound), days: z.int(m.leadTimeInvalid).min(0, m.leadTimeInvalid).max(60, m.leadTimeInvalid) });
/** Product dashboard: a category's daily limit (null: none). */
export const dailyLimitInput = z.object({
  categoryId: z.uuid(),
  limit: z.int(m.dailyLimitInvalid).min(1, m.dailyLimitInvalid).max(100_000, m.dailyLimitInvalid).nullable(),
});

/** Order Management's run sheet: one day. */
export const runSheetInput = z.object({ day: z.string().regex(DAY) });
