import type { Metadata } from "next";
import { LegalDocumentView } from "@/components/legal/legal-document";
import { privacyPolicy } from "@/lib/business-content";
import { site } from "@/server/settings/site";
import { informationOfficer, shopFacts } from "@/server/privacy/information-officer";

export const metadata: Metadata = {
  title: "Privacy Policy",
  description: `What personal information ${site.name} collects, why, how long it is kept, and your rights under POPIA.`,
  openGraph: { title: `Privacy Policy · ${site.name}` },
};

export default async function PrivacyPage() {
  return <LegalDocumentView eyebrow="Your privacy" content={privacyPolicy(await shopFacts(), await informationOfficer())} />;
}
