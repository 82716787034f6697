/** The business's own words for the home and about pages, kept out of the markup. */

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
