import { messages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter, customerProcedure } from "@/server/api/trpc";
import { checkoutFulfilment } from "./checkout-options";
import { addClosed, getFulfilmentSettings, leadTimes, removeArea, removeClosed, saveArea, updateDailyLimit, updateFulfilmentSettings, updateLeadTime } from "./manage-fulfilment";
import { runSheet } from "./run-sheet";
import {
  closedDayInput,
  closedDayKeyInput,
  dailyLimitInput,
  deliveryAreaIdInput,
  deliveryAreaInput,
  fulfilmentSettingsInput,
  leadTimeInput,
  runSheetInput,
} from "./schemas";

/** Delivery or collection (docs/architecture.md#delivery-and-collection): checkout's options, the settings, lead times, run sheets. */
export const fulfilmentRouter = createTRPCRouter({
  options: customerProcedure.query(checkoutFulfilment),
  settings: adminProcedure.query(getFulfilmentSettings),
  updateSettings: adminProcedure.meta({ failure: messages.fulfilment.settingsSaveFailed }).input(fulfilmentSettingsInput).mutation(updateFulfilmentSettings),
  saveArea: adminProcedure.meta({ failure: messages.fulfilment.settingsSaveFailed }).input(deliveryAreaInput).mutation(saveArea),
  removeArea: adminProcedure.input(deliveryAreaIdInput).mutation(removeArea),
  addClosedDay: adminProcedure.input(closedDayInput).mutation(addClosed),
  removeClosedDay: adminProcedure.input(closedDayKeyInput).mutation(removeClosed),
  leadTimes: adminProcedure.query(leadTimes),
  setLeadTime: adminProcedure.input(leadTimeInput).mutation(updateLeadTime),
  setDailyLimit: adminProcedure.input(dailyLimitInput).mutation(updateDailyLimit),
  runSheet: adminProcedure.input(runSheetInput).query(runSheet),
});
