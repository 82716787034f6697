import { formatRand2 } from "./money";

/**
 * The texts of bookable services (picking a time, holds, moving and cancelling, the balance, the
 * admin's calendar), apart from the rest of `messages` like `storefrontMessages`: a product page
 * can show a service's times, so it ships these, not every text the shop has. `messages.bookings`
 * is this object.
 */
export const bookingMessages = {
  chooseTime: "Choose a time",
  noTimes: "No free times in the next days. Please check again later or contact us.",
  loadFailed: "Failed to load the free times.",
  /** The times are South African, whatever the visitor's own clock says. */
  timesNote: "Times are South African time (SAST).",
  pickFirst: "Please choose a time first.",
  held: (name: string, when: string) => `${name} at ${when} is held for you. Check out before the hold runs out.`,
  slotTaken: "That time has just been taken. Please choose another.",
  notBookable: "This product is not booked by time.",
  /** The cart line of a held slot. */
  slot: (when: string) => `Booked for ${when}`,
  heldFor: (left: string) => `Held for ${left}`,
  holdExpired: "Hold expired: the time is yours at checkout only if it is still free.",
  bookedFor: (when: string) => `Booked for ${when}`,
  /** A booked line cancelled on its own while the rest of the order goes on; `kept`: the deposit kept past the refund rule, in rand (0: none). */
  lineCancelled: (kept: number) => (kept > 0 ? `Cancelled: not charged, but the ${formatRand2(kept)} deposit is kept` : "Cancelled: not charged"),
  moved: (name: string, when: string) => `${name} is now booked for ${when}.`,
  moveFailed: "Failed to change the time. Please try again.",
  cancelled: (name: string, when: string) => `${name} on ${when} is cancelled; the time is free again.`,
  cancelFailed: "Failed to cancel the booking. Please try again.",
  cancelBooking: "Cancel booking",
  cancelConfirm: "Cancel this booking? The time is given up at once.",
  cancelYes: "Yes, cancel it",
  /** The admins' bookings calendar and blocked times (docs/bookings.md). */
  calendar: {
    title: "Bookings",
    loadFailed: "Failed to load the bookings.",
    empty: "No bookings on these days.",
    allServices: "All services",
    atOnce: (used: number, capacity: number) => `${used} of ${capacity} at once`,
    gridLabel: "Bookings by hour and day (South African time)",
    time: "Time",
    blocksTitle: "Blocked times",
    blocksEmpty: "No blocked times ahead.",
    blockAdded: "Time blocked: no free times are offered in it.",
    blockRemoved: "Blocked time removed: its free times are offered again.",
    blockFailed: "Failed to save the blocked time. Please try again.",
    blockOrder: "A blocked time must end after it starts, within 62 days.",
    blockNotFound: "That blocked time was not found.",
    clashes: (count: number) => `Clashes with ${count} booking${count === 1 ? "" : "s"}:`,
    runSheetHeading: "Bookings",
  },
  bookingNotFound: "That booking was not found.",
  bookingCancelled: "That booking has been cancelled.",
  /** A customer moving a booking inside the service's notice. */
  tooLate: "It is too close to the booking's time to change it here. Please contact us.",
  /** Deposits and balances (docs/bookings.md): checkout, the order page, Order Management. */
  dueNow: "Due now",
  depositNote: "Bookings ask a deposit now; the balance is paid later from your order's page.",
  nothingDueNow: "Nothing to pay now: the balance is paid later from your order's page.",
  /** Pay now with nothing due now (bookings without a deposit). */
  nothingToPayOnline: "Nothing is due now for this cart, so there is nothing to pay online. Please choose bank transfer to book.",
  balanceLater: "Balance, paid later",
  deposit: (amount: string) => `Deposit ${amount}`,
  balanceDue: (amount: string, reference: string) => `Balance due: ${amount} (pay with reference ${reference})`,
  balancePaid: (amount: string) => `Balance of ${amount} paid`,
  balanceProofSent: "Proof of the balance received: we'll confirm once we've checked it.",
  balanceHeading: "Pay the balance",
  balanceHint: (reference: string) => `Pay by bank transfer with the reference ${reference} and upload your proof, or pay now online.`,
  balanceProofUploaded: (reference: string) => `Thank you: your proof of payment for ${reference} is with us. We'll confirm once we've checked it.`,
  balanceNotDue: "This order has no balance to pay now. Please check its status.",
  uploadBalanceProof: "Upload proof of the balance",
  markBalancePaid: "Mark balance paid",
  viewBalanceProof: "View the balance's proof of payment",
  balanceMarked: (reference: string) => `The balance of order ${reference} is marked paid.`,
  balanceMarkFailed: "Failed to mark the balance paid. Please try again.",
  /** The admin's "Booking" panel on a product (docs/bookings.md). */
  admin: {
    panel: "Booking",
    bookable: "Booked by time (a service)",
    loadFailed: "Failed to load the booking settings.",
    saveFailed: "Failed to save the booking settings. Please try again.",
    saved: (name: string) => `${name}'s booking settings saved.`,
    stopped: (name: string) => `${name} is no longer booked by time.`,
    wholeNumber: (label: string, min: number, max: number) => `${label} must be a whole number from ${min} to ${max}.`,
    depositPercent: "A deposit percentage must be a whole number from 1 to 99.",
    hoursOrder: "A weekday's hours must close after they open.",
    hoursShop: "Shop's hours",
    hoursClosed: "Closed",
    hoursOpen: "Own hours",
  },
};
