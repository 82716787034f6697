/** The business's own words for the home, about, terms and privacy pages, kept out of the markup. */

export interface Service {
  name: string;
  category: string;
  summary: string;
  icon: "sparkle" | "shield" | "needle" | "box" | "pie";
}

/** The five lines of work; each links to its category in the shop. */
export const SERVICES: Service[] = [
  {
    name: "Cleaning & Laundry",
    category: "Cleaning & Laundry",
    summary: "Homes and offices cleaned to a high standard, and laundry washed, dried and folded within 48 hours.",
    icon: "sparkle",
  },
  {
    name: "Risk Consulting & Recruitment",
    category: "Risk Consulting & Recruitment",
    summary: "Practical workplace and security risk assessments, and recruitment with proper vetting.",
    icon: "shield",
  },
  {
    name: "Embroidery & Branding",
    category: "Embroidery & Branding",
    summary: "Your logo on golf shirts, caps and workwear: digitised, stitched and delivered.",
    icon: "needle",
  },
  {
    name: "Supply & Corporate Stationery",
    category: "Supply & Corporate Stationery",
    summary: "Paper, toner, stationery packs and cleaning stock, delivered to your office.",
    icon: "box",
  },
  {
    name: "Food Products",
    category: "Food Products",
    summary: "Fresh pies, noodles, lunchbox treats and party packs, made in our own kitchen.",
    icon: "pie",
  },
];

export interface Testimonial {
  id: number;
  text: string;
  author: string;
  rating: number;
}

/** Three testimonials, rotating on the home page (spec §2). */
export const TESTIMONIALS: Testimonial[] = [
  {
    id: 1,
    text: "They have cleaned our office every evening for a year. Always on time, always thorough, and the team is lovely.",
    author: "Nomsa M., practice manager, Randburg",
    rating: 5,
  },
  {
    id: 2,
    text: "Our new golf shirts came out beautifully: the logo is crisp and they were ready a day early for our year-end function.",
    author: "Pieter van der Merwe, events coordinator",
    rating: 5,
  },
  {
    id: 3,
    text: "The party pack fed everyone with food to spare, and the steak and kidney pies were the first thing to go.",
    author: "Lindiwe K., Soweto",
    rating: 4,
  },
];

// ---------------------------------------------------------------------------------------------
// Terms & Conditions and the Privacy Policy (/terms, /privacy). The owner edits the words here;
// the pages only lay them out. Names, addresses and numbers that belong to the shop's settings
// come in as arguments, so the texts never repeat them.
// ---------------------------------------------------------------------------------------------

/** A link inside a sentence of a legal page. */
export interface TextLink {
  href: string;
  label: string;
}

/** A sentence or paragraph, optionally with links inside it. */
export type RichText = string | (string | TextLink)[];

/** One block of a legal page: a paragraph, a bulleted list, term–detail pairs, or contact details. */
export type LegalBlock =
  | { kind: "text"; text: RichText }
  | { kind: "list"; items: RichText[] }
  | { kind: "pairs"; items: { term: string; detail: RichText }[] }
  | { kind: "contact"; title: string; items: { label: string; value: string; href?: string }[] };

export interface LegalSection {
  /** The section's anchor (`/privacy#your-rights`), so a mail or a form can point at it. */
  id: string;
  heading: string;
  blocks: LegalBlock[];
}

export interface LegalDocument {
  title: string;
  summary: string;
  /** Change this whenever the words change. */
  lastUpdated: string;
  sections: LegalSection[];
}

/** The shop's own details the legal pages mention (today `site`; later the shop's settings). */
export interface ShopFacts {
  name: string;
  email: string;
  phone: string;
  address: string;
  hours: string;
  /** The unpaid-order policy from the shop settings; 0: never cancelled for that reason. */
  unpaidOrderDays: number;
}

/** Who answers privacy requests: POPIA's information officer; `name` blank while none is named (the business answers). */
export interface InformationOfficer {
  name: string;
  email: string;
  phone: string;
  address: string;
}

/** SARS requires a business to keep its records of transactions for five years. */
export const TAX_RECORD_YEARS = 5;
/** Contact messages are kept this long after they were answered. */
export const CONTACT_MESSAGE_MONTHS = 12;

/** The Information Regulator of South Africa's public contact details (POPIA complaints). */
export const INFORMATION_REGULATOR = {
  name: "Information Regulator (South Africa)",
  website: "https://inforegulator.org.za",
  email: "enquiries@inforegulator.org.za",
  complaintsEmail: "POPIAComplaints@inforegulator.org.za",
  phone: "010 023 5200",
} as const;

const mailto = (email: string) => `mailto:${email}`;
const tel = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;
const privacyLink: TextLink = { href: "/privacy", label: "Privacy Policy" };
const profileLink: TextLink = { href: "/profile", label: "profile page" };

/** The privacy notice POPIA asks for (section 18), in plain words. */
export function privacyPolicy(shop: ShopFacts, officer: InformationOfficer): LegalDocument {
  return {
    title: "Privacy Policy",
    summary: `This notice explains, in plain words, what personal information ${shop.name} collects when you use this shop, why we need it, where it is kept, how long we keep it and what you can ask us to do with it. It follows South Africa's Protection of Personal Information Act (POPIA).`,
    lastUpdated: "27 November 2026",
    sections: [
      {
        id: "what-we-collect",
        heading: "What we collect and why",
        blocks: [
          { kind: "text", text: "We only ask for what we need to sell to you and deliver your order. You need to give your name and e-mail address to have an account; everything else is up to you. We never see your card or bank login: you pay by bank transfer from your own bank." },
          {
            kind: "pairs",
            items: [
              { term: "Your name and e-mail address", detail: "To create your account, sign you in, put your name on your orders and e-mail you about them." },
              { term: "Your phone number", detail: "Only if you give it on the contact form, so that we can call you back, or on your profile to get your order updates on WhatsApp." },
              { term: "Your WhatsApp choices", detail: "Only if you tick “Send my order updates on WhatsApp” (or, apart from it, “Send me offers”): the number you gave, when and where you agreed, the exact words you agreed to, and when you stopped. We keep each choice so that we can show what you agreed to." },
              { term: "Your address", detail: "Only where you give it for a delivery or for a service at your home or office, so that we can get there." },
              { term: "Your profile picture", detail: "Only if you upload one. It is shown on your profile; anyone who has the picture's web address can open it, so choose one you are happy to share." },
              { term: "Your orders", detail: "What you bought, the prices, the payment reference and each order's status, to deliver the order, answer your questions and keep the business's accounts." },
              { term: "Proofs of payment", detail: "The picture or PDF you upload at checkout, so that we can match your payment to your order. It may show your name, your bank and part of your account number, so only you and our staff can open it." },
              { term: "Messages you send us", detail: "Your name, e-mail address, phone number (if given) and message from the contact form, so that we can answer you." },
              { term: "Sign-in and security records", detail: "A cookie that keeps you signed in and, for a short while, the internet address your requests come from, to stop people guessing passwords or flooding the shop. We use no advertising or tracking cookies." },
            ],
          },
          { kind: "text", text: "If you choose to sign in with Google, Google tells us your name and e-mail address and nothing else." },
        ],
      },
      {
        id: "whatsapp",
        heading: "Order updates on WhatsApp",
        blocks: [
          { kind: "text", text: "We send you messages on WhatsApp only if you have ticked “Send my order updates on WhatsApp” on your profile. We then send there, instead of by e-mail: that we received your order (its reference, total and how to pay), that your payment arrived, when your order will be delivered or ready for collection, and when its status changes. If a WhatsApp message cannot be delivered, we e-mail it to you instead. We never send offers unless you have ticked “Send me offers” separately." },
          { kind: "text", text: ["To stop at once, reply STOP to any of our WhatsApp messages, or untick the choice on your ", profileLink, ". We confirm a STOP once and send nothing more there; your order updates go by e-mail again. WhatsApp (Meta) delivers these messages for us and sees the number and the message."] },
        ],
      },
      {
        id: "where-it-is-stored",
        heading: "Where it is kept",
        blocks: [
          { kind: "text", text: "Everything above is kept in the shop's database and file storage, which run on the servers of our hosting provider. Only our staff who run the shop can see orders, proofs of payment and messages; each customer can see only their own." },
          { kind: "text", text: "Passwords are stored only in a scrambled form that cannot be turned back into the password, and the shop is reached only over an encrypted (HTTPS) connection." },
          { kind: "text", text: "If our hosting provider keeps the servers outside South Africa, we use only a provider bound by data-protection rules at least as strong as POPIA's, as section 72 of POPIA requires." },
        ],
      },
      {
        id: "how-long",
        heading: "How long we keep it",
        blocks: [
          {
            kind: "pairs",
            items: [
              { term: "Orders and proofs of payment", detail: `${TAX_RECORD_YEARS} years after the order, because SARS requires businesses to keep their records of sales for ${TAX_RECORD_YEARS} years. Then we delete them.` },
              { term: "Your account (name, e-mail address, profile picture, cart, WhatsApp choices)", detail: "Until you delete your account." },
              { term: "Messages you send us", detail: `Up to ${CONTACT_MESSAGE_MONTHS} months after we have answered, unless a message is about an order we still have to keep.` },
              { term: "Security records", detail: "A day at most." },
            ],
          },
        ],
      },
      {
        id: "who-we-share-with",
        heading: "Who we share it with",
        blocks: [
          { kind: "text", text: "We never sell or rent your personal information, and we do not give it to anyone for marketing. Only these see it, and only for the reasons given:" },
          {
            kind: "list",
            items: [
              "Our hosting provider, whose servers hold the shop's database and files.",
              "Our e-mail delivery provider, which delivers the e-mails about your orders and messages.",
              "WhatsApp (Meta), only if you chose order updates on WhatsApp: your number and those messages.",
              "Google, only if you choose to sign in with Google.",
              "Anyone the law requires us to give it to, such as SARS.",
            ],
          },
        ],
      },
      {
        id: "your-rights",
        heading: "Your rights",
        blocks: [
          { kind: "text", text: "Under POPIA you may:" },
          {
            kind: "pairs",
            items: [
              { term: "Access", detail: "ask what personal information we hold about you, and get a copy of it." },
              { term: "Correction", detail: "ask us to correct information that is wrong, out of date or incomplete." },
              { term: "Deletion", detail: "ask us to delete information we no longer need or have no right to keep." },
              { term: "Objection", detail: "object to how we use your information, including to any marketing." },
              { term: "Complaint", detail: "complain to the Information Regulator if you think we have mishandled your information (its details are below)." },
            ],
          },
        ],
      },
      {
        id: "using-your-rights",
        heading: "How to use your rights",
        blocks: [
          {
            kind: "list",
            items: [
              ["Download my data: on your ", profileLink, ", the “Download my data” button gives you a copy of the personal information we hold for your account."],
              ["Delete your account: on your ", profileLink, ", the “Delete Profile” button deletes your account straight away."],
              `Anything else (a correction, an objection or a question): e-mail or phone ${officer.name ? "our information officer, whose details are below" : "us (our details are below)"}. We reply within 30 days and it costs you nothing.`,
            ],
          },
          { kind: "text", text: "Before we hand over or change information, we may ask you to show that it is yours." },
        ],
      },
      {
        id: "deleting-your-account",
        heading: "What deleting your account keeps",
        blocks: [
          { kind: "text", text: "Deleting your account removes your sign-in, your profile (name, e-mail address and picture), your cart and your WhatsApp choices (with the number you gave) at once." },
          { kind: "text", text: `Your orders and their proofs of payment stay, with the name and e-mail address you used at the time, because the business must keep them for SARS for ${TAX_RECORD_YEARS} years. They are no longer linked to any account, and we delete them when that time is up. Messages you sent us stay until their own time is up.` },
        ],
      },
      {
        id: "information-officer",
        heading: "Contact our information officer",
        blocks: [
          {
            kind: "text",
            text: officer.name
              ? `${shop.name} is responsible for your personal information. Our information officer answers every privacy question and request:`
              : `${shop.name} is responsible for your personal information and answers every privacy question and request itself:`,
          },
          {
            kind: "contact",
            title: officer.name ? "Information officer" : `Responsible party: ${shop.name}`,
            items: [
              { label: "Name", value: officer.name },
              { label: "E-mail", value: officer.email, href: mailto(officer.email) },
              { label: "Phone", value: officer.phone, href: tel(officer.phone) },
              { label: "Post", value: officer.address },
            ],
          },
        ],
      },
      {
        id: "information-regulator",
        heading: "The Information Regulator",
        blocks: [
          { kind: "text", text: "If you are not happy with our answer, you may complain to the Information Regulator of South Africa, which oversees POPIA. Complaints are made on its POPIA Form 5, found on its website." },
          {
            kind: "contact",
            title: INFORMATION_REGULATOR.name,
            items: [
              { label: "Website", value: "inforegulator.org.za", href: INFORMATION_REGULATOR.website },
              { label: "E-mail", value: INFORMATION_REGULATOR.email, href: mailto(INFORMATION_REGULATOR.email) },
              { label: "Complaints", value: INFORMATION_REGULATOR.complaintsEmail, href: mailto(INFORMATION_REGULATOR.complaintsEmail) },
              { label: "Phone", value: INFORMATION_REGULATOR.phone, href: tel(INFORMATION_REGULATOR.phone) },
            ],
          },
        ],
      },
      {
        id: "changes",
        heading: "Changes to this notice",
        blocks: [{ kind: "text", text: "When we change this notice we update the date at the top. If a change affects information we already hold about you, we will e-mail you before it applies." }],
      },
    ],
  };
}

/** The terms a customer agrees to when creating an account and ordering. */
export function termsAndConditions(shop: ShopFacts): LegalDocument {
  return {
    title: "Terms & Conditions",
    summary: `These terms apply when you buy from ${shop.name} through this website. By creating an account you agree to them, so please read them before you order. Nothing in them takes away a right you have under South African law, including the Consumer Protection Act.`,
    lastUpdated: "23 November 2026",
    sections: [
      {
        id: "your-account",
        heading: "Your account",
        blocks: [
          {
            kind: "list",
            items: [
              "You need an account to keep a cart and order. Please give your real name and an e-mail address you read.",
              "Keep your password to yourself. Tell us straight away if you think someone else has used your account.",
              "You must be 18 or older to order, or order with a parent's or guardian's permission.",
            ],
          },
        ],
      },
      {
        id: "ordering",
        heading: "Ordering",
        blocks: [
          {
            kind: "list",
            items: [
              "Add what you want to your cart, then check out: you pay by bank transfer and upload your proof of payment.",
              "Your order is an offer to buy. We accept it when we have confirmed your payment; its status then changes from “Pending Payment Verification” to “Pending Delivery”.",
              "If we cannot supply something you ordered, we tell you and refund what you paid for it.",
              "For services (cleaning, consulting, recruitment, embroidery), we contact you after your payment is confirmed to agree the date, the place and the details.",
            ],
          },
        ],
      },
      {
        id: "prices",
        heading: "Prices",
        blocks: [
          {
            kind: "list",
            items: [
              "Prices are in South African rand (R). They include VAT where VAT applies.",
              "There is no separate delivery fee in our usual delivery area; for anywhere further we agree a fee with you before we deliver.",
              "You pay the price shown when you place your order, even if it changes afterwards.",
              "If a price is obviously wrong (a typing error, say), we tell you before we accept the order, and you may cancel it for a full refund.",
            ],
          },
        ],
      },
      {
        id: "payment",
        heading: "Paying by bank transfer",
        blocks: [
          {
            kind: "list",
            items: [
              "We take payment by bank transfer (EFT) only. The checkout page shows our bank account.",
              "Use the payment reference shown at checkout (it starts with ORD-), so that we can match your payment to your order.",
              "Upload your proof of payment (a photo, a screenshot or your bank's PDF) when you complete the order.",
              "We confirm your order once the money is in our account; from another bank this can take up to two working days.",
              `We never ask for your card details or banking passwords. If anyone asks you to pay into a different account, do not pay: ${shop.phone ? `phone us on ${shop.phone}` : "contact us"} first.`,
            ],
          },
        ],
      },
      {
        id: "unpaid-orders",
        heading: "Unpaid orders",
        blocks: [
          {
            kind: "text",
            text: `${shop.unpaidOrderDays > 0 ? `If we have not received the payment for an order ${shop.unpaidOrderDays} days after it was placed, the shop cancels it; if` : "If"} the proof of payment does not match a payment in our account, we may cancel the order. We tell you by e-mail when we do. If you have paid and your order was cancelled, contact us and we will sort it out.`,
          },
        ],
      },
      {
        id: "delivery",
        heading: "Delivery and collection",
        blocks: [
          {
            kind: "list",
            items: [
              `We deliver to the address you give us, or you may collect your order${shop.address ? ` from ${shop.address}` : ""}${shop.hours ? ` (${shop.hours})` : ""}.`,
              "Once your payment is confirmed we contact you to agree a delivery or collection time.",
              "Food is delivered fresh on the agreed day, so someone needs to be there to receive it.",
              "Please check your order when you receive it and tell us at once if anything is missing or damaged.",
            ],
          },
        ],
      },
      {
        id: "cancelling-and-returns",
        heading: "Cancelling and returns",
        blocks: [
          {
            kind: "list",
            items: [
              "Until we have confirmed your payment you may cancel your order by contacting us; we refund anything you have paid.",
              "Within 7 days of receiving goods bought online you may cancel without giving a reason (Electronic Communications and Transactions Act, section 44). You pay only the direct cost of sending the goods back, and we refund you within 30 days. This does not apply to food, to goods made or personalised for you (such as embroidered items), or to services that began, with your agreement, within those 7 days.",
              "If goods are defective, unsafe or not of good quality, you may return them within six months of delivery and choose a repair, a replacement or a refund (Consumer Protection Act, section 56). We pay the reasonable cost of the return.",
              "If a service is not done to the standard you are entitled to expect, tell us: we put right what is wrong, or refund a fair part of the price (Consumer Protection Act, section 54).",
              "Refunds are paid by bank transfer to the account you paid from.",
            ],
          },
        ],
      },
      {
        id: "liability",
        heading: "Our responsibility",
        blocks: [
          { kind: "text", text: "We do what these terms promise with reasonable care and skill. We are not responsible for losses nobody could have foreseen, for business losses such as lost profit, or for delays caused by events outside our control, such as load-shedding, strikes or severe weather: if one of these delays your order, we tell you and agree a new date or refund you." },
          { kind: "text", text: "Nothing in these terms limits our responsibility where the law does not allow it to be limited, including your rights under the Consumer Protection Act and our responsibility for harm caused by our gross negligence." },
        ],
      },
      {
        id: "your-information",
        heading: "Your information",
        blocks: [{ kind: "text", text: ["How we collect, use and keep your personal information is explained in our ", privacyLink, "."] }],
      },
      {
        id: "governing-law",
        heading: "Governing law and disputes",
        blocks: [
          { kind: "text", text: "These terms are governed by the law of the Republic of South Africa. If something goes wrong, please talk to us first: most problems are solved with a phone call. You may also approach the Consumer Goods and Services Ombud, the National Consumer Commission or a South African court." },
        ],
      },
      {
        id: "contact",
        heading: "Changes and questions",
        blocks: [
          { kind: "text", text: "We may update these terms. The version on this page when you place an order is the one that applies to that order." },
          {
            kind: "contact",
            title: shop.name,
            items: [
              { label: "E-mail", value: shop.email, href: mailto(shop.email) },
              { label: "Phone", value: shop.phone, href: tel(shop.phone) },
              { label: "Address", value: shop.address },
              { label: "Hours", value: shop.hours },
            ],
          },
        ],
      },
    ],
  };
}
