import "server-only";

import type { InformationOfficer } from "@/lib/business-content";
import { site } from "@/server/settings/site";

/**
 * Who answers privacy requests: POPIA's information officer, named on /privacy. The one place that
 * decides it: today the business's own contact details from `site`; once the shop's settings live
 * in the database (ARCHITECTURE §15), read them here. Async already, so callers need not change.
 */
export async function informationOfficer(): Promise<InformationOfficer> {
  return {
    name: `The Information Officer, ${site.name}`,
    email: site.email,
    phone: site.phone,
    address: site.address,
  };
}
