import { receivePaymentNotification, type NotificationResult } from "@/server/payments/notification";
import type { PaymentNotification } from "@/server/ports/payments";
import { getShopProcess } from "./shop-process";

/** A payment provider's notification to this process (the notify route): `provider` names which. */
export async function paymentNotification(provider: string, notification: PaymentNotification): Promise<NotificationResult | null> {
  const shop = await getShopProcess();
  if (provider !== shop.payments.provider.id) return null;
  return receivePaymentNotification(shop.database, shop.payments, notification);
}
