import type { Metadata } from "next";
import { LegalDocumentView } from "@/components/legal/legal-document";
import { termsAndConditions } from "@/lib/business-content";
import { shopFacts } from "@/server/privacy/information-officer";
import { site } from "@/server/settings/site";

export const metadata: Metadata = {
  title: "Terms & Conditions",
  description: `How ordering from ${site.name} works: prices in rands, bank-transfer payment, delivery, cancellations and returns.`,
  openGraph: { title: `Terms & Conditions · ${site.name}` },
};

export default async function TermsPage() {
  return <LegalDocumentView eyebrow="Shopping with us" content={termsAndConditions(await shopFacts())} />;
}
