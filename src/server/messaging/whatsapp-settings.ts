import { KeptValues } from "@/server/cache/kept-values";
import { perDatabase } from "@/server/cache/per-database";
import { runAs, SERVICE } from "@/server/db/as-caller";
import { CATALOGUE_CHANNEL } from "@/server/db/channels";
import type { ShopDatabase } from "@/server/db/database";
import type { WhatsAppEnvironment, WhatsAppSettings } from "@/server/ports/messaging";
import { readSavedWhatsApp } from "./whatsapp-settings-queries";

/** WhatsApp's row of Shop settings (075_messaging.sql `whatsapp_settings`), secrets included: server only. */
export interface SavedWhatsApp {
  enabled: boolean;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  /** E.164, or "" while none is saved. */
  ownerPhone: string;
  ownerAlerts: boolean;
}

export type { WhatsAppEnvironment };

/** Which WhatsApp settings are in force, and whether they are meant to be on but are not. */
export interface WhatsAppState {
  /** Shop settings once saved there; the environment while nothing is saved. */
  source: "saved" | "environment";
  /** The settings in force: switched on with all four; undefined: off, e-mail only. */
  settings?: WhatsAppSettings;
  /** Switched on (or some WHATSAPP_* set) without all four: meant to be on, and off (the go-live checklist). */
  incomplete: boolean;
}

const FOUR = ["phoneNumberId", "accessToken", "appSecret", "verifyToken"] as const;

/** The environment's settings as a row would hold them: on when any of the four is set. */
export function savedFromEnvironment(environment: WhatsAppEnvironment): SavedWhatsApp {
  return {
    enabled: FOUR.some((key) => Boolean(environment[key])),
    phoneNumberId: environment.phoneNumberId ?? "",
    accessToken: environment.accessToken ?? "",
    appSecret: environment.appSecret ?? "",
    verifyToken: environment.verifyToken ?? "",
    ownerPhone: "",
    ownerAlerts: false,
  };
}

/**
 * The settings in force (docs/whatsapp.md): the saved ones when Shop settings hold a row, else
 * the environment's WHATSAPP_* (a deployment that set them keeps working until the owner saves
 * the form, which keeps them). WHATSAPP_API_URL and WHATSAPP_API_VERSION always come from the
 * environment. Pure.
 */
export function whatsappStateOf(saved: SavedWhatsApp | null, environment: WhatsAppEnvironment = {}): WhatsAppState {
  const values = saved ?? savedFromEnvironment(environment);
  const complete = FOUR.every((key) => values[key] !== "");
  const { phoneNumberId, accessToken, appSecret, verifyToken } = values;
  return {
    source: saved ? "saved" : "environment",
    settings: values.enabled && complete ? { phoneNumberId, accessToken, appSecret, verifyToken, apiUrl: environment.apiUrl, apiVersion: environment.apiVersion } : undefined,
    incomplete: values.enabled && !complete,
  };
}

/** What the admins' form shows: never the token or secrets themselves, only whether each is set. */
export interface AdminWhatsAppSettings {
  source: "saved" | "environment";
  /** Switched on with all four: customers are offered WhatsApp and alerts are sent. */
  on: boolean;
  enabled: boolean;
  phoneNumberId: string;
  hasAccessToken: boolean;
  hasAppSecret: boolean;
  hasVerifyToken: boolean;
  ownerPhone: string;
  ownerAlerts: boolean;
}

export function adminViewOf(saved: SavedWhatsApp | null, environment: WhatsAppEnvironment): AdminWhatsAppSettings {
  const values = saved ?? savedFromEnvironment(environment);
  return {
    source: saved ? "saved" : "environment",
    on: whatsappStateOf(saved, environment).settings !== undefined,
    enabled: values.enabled,
    phoneNumberId: values.phoneNumberId,
    hasAccessToken: values.accessToken !== "",
    hasAppSecret: values.appSecret !== "",
    hasVerifyToken: values.verifyToken !== "",
    ownerPhone: values.ownerPhone,
    ownerAlerts: values.ownerAlerts,
  };
}

/** Kept settings are read again after this long, even if no change was heard. */
export const WHATSAPP_SETTINGS_TTL_MS = 60_000;

/**
 * WhatsApp's settings as one process uses them (the outbox worker, the webhook, the consent
 * choices, the go-live checklist): the saved row is read as the service role, kept, and dropped
 * on every change (the table notifies on the catalogue's channel, as PayFast's settings do), so
 * switching WhatsApp on or off or changing its credentials needs no restart.
 */
export interface WhatsAppSwitch {
  current(): Promise<WhatsAppState>;
  /** Whether order updates may go on WhatsApp now (only this fact reaches a page). */
  isOn(): Promise<boolean>;
  /** WHATSAPP_* of this process: what is used while nothing is saved. Server only, never returned. */
  readonly environment: WhatsAppEnvironment;
  /** This process forgets the kept row at once (after an admin saved it); others hear it from the database. */
  changed(): void;
}

interface KeptRow {
  saved(): Promise<SavedWhatsApp | null>;
  changed(): void;
}

function createKeptRow(database: ShopDatabase): KeptRow {
  const kept = new KeptValues<"saved", { value: SavedWhatsApp | null }>({ max: 1, ttlMs: WHATSAPP_SETTINGS_TTL_MS });
  return {
    saved: async () => (await kept.fill("saved", async () => ({ value: await runAs(database.kysely, SERVICE, (trx) => readSavedWhatsApp(trx)) }))).value,
    changed: () => kept.clear(),
  };
}

const keptRows = perDatabase<KeptRow>({
  channels: { [CATALOGUE_CHANNEL]: (row) => row.changed() },
  unheard: (row, error) => {
    console.error("[whatsapp] could not listen for settings changes:", error);
    return row;
  },
});

/** WhatsApp's settings of a process over a database (the saved row is kept once per database). */
export async function whatsappSwitchFor(database: ShopDatabase, environment: WhatsAppEnvironment = {}): Promise<WhatsAppSwitch> {
  const row = await keptRows(database, () => createKeptRow(database));
  const current = async () => whatsappStateOf(await row.saved(), environment);
  return {
    current,
    isOn: async () => (await current()).settings !== undefined,
    environment,
    changed: () => row.changed(),
  };
}
