import type { PaymentProvider } from "@/server/ports/payments";
import type { PaymentSettings } from "./payment-settings";

/**
 * What the payments domain gets from the platform: the provider's adapter (PayFast) and the
 * credentials the owner saved for it. One provider today; the port fits a second.
 */
export interface OnlinePayments {
  provider: PaymentProvider;
  settings: PaymentSettings;
}
