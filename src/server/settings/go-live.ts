import { GO_LIVE_ITEMS, type GoLiveItem } from "@/lib/constants";
import type { TRPCContext } from "@/server/api/trpc";
import { readFulfilmentSettings } from "@/server/fulfilment/fulfilment-queries";
import { invoiceSettingsFromEnv } from "@/server/invoices/defaults";
import { readInvoiceSettings } from "@/server/invoices/invoice-queries";
import type { InvoiceSettingsValues } from "@/server/invoices/schemas";
import { readCredentials } from "@/server/payments/payment-queries";
import type { PaymentCredentials } from "@/server/ports/payments";
import { isPlaceholderBank } from "./bank-transfer";
import { settingsFromEnv } from "./defaults";
import { DEMO_VALUES, isDemoValue } from "./demo-values";
import { publicSettingsOf, readAdminSettings } from "./settings-queries";
import type { ShopSettingsValues } from "./schemas";

/** Everything the checklist looks at: the settings, and two facts of the environment (booleans only). */
export interface GoLiveFacts {
  shop: ShopSettingsValues;
  invoices: InvoiceSettingsValues;
  collection: { enabled: boolean; address: string };
  payfast: Pick<PaymentCredentials, "merchantId" | "sandbox"> | null;
  /** SITE_URL is set to an https:// address. */
  siteUrlIsHttps: boolean;
  /** SMTP_URL is set: mails are sent. */
  mailIsSent: boolean;
  /** WhatsApp is switched on in Shop settings (or, none saved, some WHATSAPP_* set) without all four of its settings: meant to be on, and off. */
  whatsappIncomplete: boolean;
}

/** The items still to do, in GO_LIVE_ITEMS order. Pure: the same facts, the same list. */
export function goLiveItems(facts: GoLiveFacts): GoLiveItem[] {
  const { shop, invoices } = facts;
  const demo = DEMO_VALUES;
  const todo: Record<GoLiveItem, boolean> = {
    bank: isPlaceholderBank(publicSettingsOf(shop).bank),
    phone: isDemoValue(shop.phone, demo.phone),
    email: isDemoValue(shop.email, demo.email),
    // Optional: blank is an honest "no address", only the demo one is a placeholder.
    address: shop.address !== "" && isDemoValue(shop.address, demo.address),
    informationOfficer: isDemoValue(shop.informationOfficerName, demo.informationOfficerName) || isDemoValue(shop.informationOfficerEmail, demo.email),
    invoiceDetails:
      isDemoValue(invoices.legalName, demo.legalNames) || isDemoValue(invoices.legalAddress, demo.address) || (invoices.vatRegistered && invoices.vatNumber === ""),
    collection: facts.collection.enabled && isDemoValue(facts.collection.address, demo.address),
    payfastSandbox: Boolean(facts.payfast?.merchantId) && facts.payfast?.sandbox === true,
    siteUrl: !facts.siteUrlIsHttps,
    mail: !facts.mailIsSent,
    whatsapp: facts.whatsappIncomplete,
  };
  return GO_LIVE_ITEMS.filter((item) => todo[item]);
}

/** What settings.goLive answers: the items left, and whether this is production (the banner shows there only). */
export interface GoLiveStatus {
  production: boolean;
  items: GoLiveItem[];
}

type Ctx = Pick<TRPCContext, "db" | "production" | "mailIsSent" | "siteUrlIsHttps" | "whatsapp">;

/** settings.goLive (admins; RLS lets only them read the private settings it looks at). */
export async function goLiveStatus({ ctx }: { ctx: Ctx }): Promise<GoLiveStatus> {
  const whatsapp = await ctx.whatsapp.current();
  const facts = await ctx.db.transaction(async (trx) => {
    const shop = await readAdminSettings(trx, settingsFromEnv());
    const invoices = await readInvoiceSettings(trx, invoiceSettingsFromEnv());
    const fulfilment = await readFulfilmentSettings(trx);
    const payfast = await readCredentials(trx);
    return {
      shop: shop.values,
      invoices: invoices.values,
      collection: { enabled: fulfilment.collectionEnabled, address: fulfilment.collectionAddress },
      // Only what the checklist asks: never the key or passphrase.
      payfast: payfast && { merchantId: payfast.merchantId, sandbox: payfast.sandbox },
      siteUrlIsHttps: ctx.siteUrlIsHttps,
      mailIsSent: ctx.mailIsSent,
      whatsappIncomplete: whatsapp.incomplete,
    };
  });
  return { production: ctx.production, items: goLiveItems(facts) };
}
