import { BANK_ACCOUNT_TYPES, MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MAX_UNPAID_ORDER_DAYS } from "./constants";
import { bookingMessages } from "./booking-messages";
import { pageMessages } from "./page-messages";
import type { SignInReason } from "./sign-in-paths";
import { signInToAddToCart, storefrontMessages } from "./storefront-messages";

// Said both on the profile (spec §2) and on the sign-in page when a visitor is sent from there.
const signInToViewProfile = "Please sign in to view your profile.";
// Said both when Google sign-in starts and when it comes back without a session.
const googleNotConfigured = "Google sign-in is not configured for this shop.";
const googleFailed = "Google sign-in failed. Please try again.";

/**
 * Every user-facing message text from the spec, in one object: the UI, the server and the tests
 * all use these. Each text is written once, here or in the groups this takes in from beside it
 * (page-messages.ts, storefront-messages.ts, booking-messages.ts: the texts client components on
 * every page or on the storefront ship without the rest).
 */
export const messages = {
  /** An upload refused by its size or type: in the browser before it is sent, and by the server (src/server/storage/). */
  upload: {
    empty: "The file is empty. Please choose an image.",
    too_large: "The image is larger than 5 MB. Please choose a smaller one.",
    not_an_image: "Only JPEG, PNG, WebP or GIF images can be uploaded.",
    not_a_proof: "Only JPEG, PNG, WebP or GIF images or PDF files can be uploaded as proof of payment.",
    too_many_pixels: "The image is too large (over 40 megapixels). Please choose a smaller one.",
    unsafe_content: "This file contains more than an image and cannot be uploaded.",
    /** A logo (or other file) added to a line: what it may be (SVG is refused: save it as PNG). */
    not_a_logo: "A logo must be a PNG, JPEG, WebP or PDF file of up to 10 MB. An SVG logo can be saved as PNG first.",
    logo_too_large: "The file is larger than 10 MB. Please choose a smaller one.",
  },
  /** A call that failed for a reason nobody expected, when its procedure names no message of its own. */
  unexpected: "Something went wrong on our side. Please try again.",
  ...pageMessages,
  ...storefrontMessages,
  security: {
    crossOrigin: "This request did not come from the shop's own pages, so it was refused.",
    /** Rate limits (sign-up, contact form, checkout): how long to wait, in whole minutes. */
    slowDown: (minutes: number) =>
      `Too many requests from you in a short time. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
  },
  checkout: {
    cartEmptyOrSignedOut: "Your cart is empty or you are not logged in.",
    proofRequired: "Please upload proof of payment before proceeding.",
    failed: "Failed to place order. Please try again.",
    success: (id: string) => `Order placed successfully with proof of payment! ✅ Order ID: ${id}`,
    itemsUnavailable: "Some items in your cart are no longer available. Please remove them and try again.",
    referenceInvalid: "That payment reference is not valid. Please reload the checkout page.",
    referenceStale: "This payment reference has expired. Please reload the checkout page to see your current reference.",
    /** Shown instead of a reference while the cart is empty: an empty cart reserves none. */
    referencePending: "Your payment reference appears here once your cart has items.",
    copy: "Copy",
    copied: "Copied",
    selected: "Selected",
    /** The copy buttons' accessible names, e.g. 'Copy account number'. */
    copyLabel: (what: string) => `Copy ${what}`,
    copiedAnnouncement: (what: string) => `Copied the ${what}.`,
    /** Where the clipboard cannot be written (an older browser, a page not served over HTTPS). */
    selectedAnnouncement: (what: string) => `The ${what} is selected: copy it with your device's copy command.`,
    /** Production, while the shop settings still hold the demo bank account (or none). */
    bankTransferNotSetUp: "Payment by bank transfer is not set up yet, so the shop cannot take orders at the moment. Please try again later, or contact us.",
    /** Outside production the demo bank account works, labelled so nobody pays into it. */
    demoBankDetails: "Demo bank details: this shop is not live, so do not pay into this account.",
    /** place_order's personalisation check: the product's fields changed since the line was added. */
    personalisationStale: (name: string) => `The personalisation ${name} asks for has changed. Please remove it from your cart and add it again.`,
    /** place_order's stock check: the line's name and how many are left (0: sold out). */
    notEnoughStock: (name: string, left: number) =>
      left > 0
        ? `Only ${left} of ${name} ${left === 1 ? "is" : "are"} left. Please lower the quantity in your cart and try again.`
        : `${name} is sold out. Please remove it from your cart and try again.`,
    /** place_order's booking check: the line's slot was taken while its hold had expired. */
    slotTaken: (name: string, when: string) =>
      `${name} at ${when} has just been booked by someone else. Please remove it from your cart and choose another time.`,
    /** The cart's total is more than an order can hold (orders.total is numeric(12, 2)). */
    totalTooLarge: "This order's total is more than the shop can take in one order. Please split it into smaller orders.",
  },
  /** Bookable services (docs/bookings.md): free times, holds and bookings. */
  bookings: bookingMessages,
  /** Delivery or collection, the day, and the fee (docs/architecture.md#delivery-and-collection). */
  fulfilment: {
    heading: "Delivery or collection",
    deliveryOption: "Deliver to my address",
    collectionOption: "I'll collect",
    area: "Delivery area",
    areaPlaceholder: "Choose your suburb or postal code",
    address: "Delivery address",
    keepAddress: "Keep this address for next time",
    day: "Day",
    noDays: "We can't offer a day for this cart at the moment. Please contact us.",
    deliveryFee: "Delivery",
    collectFrom: (address: string) => `Collect from ${address}`,
    /** The refusals of place_order (toCheckoutError): each changes nothing. */
    required: "Please choose delivery or collection and a day.",
    dayFull: "That day is fully booked, please choose another.",
    dayUnavailable: "We can no longer deliver or have your order ready on that day. Please choose another day.",
    areaUnknown: "Sorry, we don't deliver to that area. Please choose one of our delivery areas, or collect your order.",
    addressRequired: "Please enter the address we should deliver to.",
    addressTooLong: "The delivery address can be at most 300 characters.",
    belowMinimum: "Your order is below this area's minimum for delivery. Please add more items or collect your order.",
    collectionUnavailable: "Collection is not available at the moment. Please choose delivery.",
    minimumNote: (minimum: string) => `minimum order ${minimum}`,
    /** Purchase history, mails, Order Management. */
    deliveredOn: (day: string) => `Delivery on ${day}`,
    collectedOn: (day: string) => `Collection on ${day}`,
    settingsTitle: "Delivery and collection",
    settingsSaved: "Delivery and collection settings saved. Checkout uses them now.",
    settingsSaveFailed: "Could not save the delivery and collection settings. Please try again.",
    collectionAddressRequired: "Please enter the address customers collect from.",
    cutoffInvalid: "Please enter the cut-off as a time of day, e.g. 14:00.",
    areaNameRequired: "Please enter the suburb or postal code.",
    areaExists: (name: string) => `There is already a delivery area called '${name}'.`,
    feeInvalid: "Please enter a fee in rands, 0 or more, e.g. 60 or 49.50.",
    minimumInvalid: "Please enter a minimum order in rands greater than 0, or leave it blank.",
    areaSaved: (name: string) => `Delivery area '${name}' saved.`,
    areaRemoved: (name: string) => `Delivery area '${name}' removed. Past orders keep it.`,
    closedDayInvalid: "Please choose a date and say why the shop is closed (e.g. Christmas Day).",
    closedDayAdded: (day: string) => `Closed on ${day}.`,
    closedDayRemoved: (day: string) => `Open again on ${day}.`,
    leadTimeInvalid: "Please enter a lead time of 0 to 60 days.",
    leadTimeSaved: (name: string, days: number) => `${name}: ${days === 0 ? "no lead time" : `ready after ${days} day${days === 1 ? "" : "s"}`}.`,
    dailyLimitInvalid: "Please enter a daily limit of at least 1, or leave it blank for no limit.",
    dailyLimitSaved: (name: string, limit: number | null) => `${name}: ${limit === null ? "no daily limit" : `at most ${limit} a day`}.`,
    runSheetTitle: (day: string) => `Run sheet for ${day}`,
    runSheetEmpty: "Nothing to deliver or hand over on this day.",
  },
  /** Paying online through a provider's hosted page (PayFast), beside bank transfer (docs/architecture.md#payments). */
  payments: {
    payNowOption: "Pay now (card or instant EFT)",
    bankTransferOption: "Pay by bank transfer",
    payNowHint: "You'll pay on PayFast's secure page by card, instant EFT or another method PayFast offers, then come back here.",
    payNowButton: "Pay now with PayFast",
    redirecting: "Taking you to PayFast...",
    /** Checkout or "pay again" while PayFast is not (or no longer) set up in Shop settings. */
    unavailable: "Paying online is not available at the moment. Please pay by bank transfer.",
    /** Pay again / switch to bank transfer for an order that is paid, cancelled or not the customer's. */
    notPayable: "This order can no longer be paid. Please check its status in your purchase history.",
    returnTitle: "Thank you for your payment",
    /** The return page while PayFast's notification has not arrived yet. */
    awaiting: (reference: string) => `We're waiting for PayFast to confirm the payment for order ${reference}. This page updates by itself.`,
    paid: (reference: string) => `Payment received: order ${reference} is paid. ✅`,
    cancelledTitle: "Payment cancelled",
    cancelled: (reference: string) => `Your payment was cancelled, so order ${reference} is still waiting for payment. You can pay now, or pay by bank transfer and upload your proof of payment.`,
    payAgain: "Pay now",
    switchToBankTransfer: "Pay by bank transfer instead",
    proofAttached: (reference: string) => `Thank you: your proof of payment for order ${reference} is with us. We'll confirm once we've checked it.`,
    orderClosed: (reference: string) => `Order ${reference} is no longer waiting for payment.`,
    /** Purchase history and Order Management. */
    paidBy: (provider: string) => `Paid by ${provider}`,
    /** Whether a status change's reason is a payment's (record_online_payment() writes "Paid by PayFast"), not the shop's own. */
    isPaymentReason: (reason: string) => reason.startsWith("Paid by "),
    awaitingOnline: "Awaiting online payment",
    refundDue: "Paid after cancellation: refund due",
    settingsTitle: "Online payments (PayFast)",
    settingsSaved: "Payment settings saved.",
    settingsSaveFailed: "Could not save the payment settings. Please try again.",
    merchantIdInvalid: "The merchant ID is the number PayFast gave you (digits only).",
    merchantKeyInvalid: "The merchant key is the letters and digits PayFast gave you.",
    merchantKeyRequired: "Enter the merchant key with the merchant ID (both come from your PayFast dashboard).",
    passphraseTooLong: "The passphrase can be at most 100 characters.",
    /** Shown instead of a secret the form never sends back to the browser. */
    secretKept: "Saved (hidden). Leave blank to keep it.",
    secretNotSet: "Not set.",
  },
  mail: {
    title: "Outbox",
    loadFailed: "Failed to load the outbox.",
    empty: "No mails yet.",
    unrenderable: "(this mail's data no longer fits its template)",
    notSending:
      "No SMTP server is configured (SMTP_URL), so nothing is sent: the mails customers and the shop would get are kept here. Set SMTP_URL to send them.",
    status: { queued: "Waiting", retrying: "Retrying", sent: "Sent", failed: "Failed" } as const,
    /** Each row's channel, and what WhatsApp last said about a message (its status webhooks). */
    channel: { email: "E-mail", whatsapp: "WhatsApp" } as const,
    delivery: { sent: "Sent to WhatsApp", delivered: "Delivered", read: "Read", failed: "Not delivered" } as const,
    fallback: "Sent by e-mail because the WhatsApp message could not be delivered.",
    whatsappSubject: "WhatsApp message",
    /** Order Management: one order's messages to its customer. */
    orderMessages: "Messages to the customer",
    orderMessagesNone: "Nothing has been sent to the customer about this order yet.",
    /** Beside an e-mail sent because its WhatsApp message failed for good. */
    insteadOfWhatsApp: "instead of WhatsApp",
  },
  settings: {
    title: "Shop settings",
    saved: "Shop settings saved. Checkout, the footer and the contact page show them now.",
    saveFailed: "Failed to save the shop settings. Please try again.",
    loadFailed: "Failed to load the shop settings.",
    /** Every admin page, in production, while checkout cannot take orders. */
    bankNotSetUp: "Customers cannot check out yet: the shop's bank account is still the demo placeholder. Enter the real one in Shop settings.",
    demoBank: "The bank account is the demo placeholder. That works outside production; in production checkout refuses orders until the real account is entered.",
    /** `label`: the field as a sentence starts with it, "The account name". */
    required: (label: string) => `Please enter ${label.charAt(0).toLowerCase()}${label.slice(1)}.`,
    tooLong: (label: string, max: number) => `${label} can be at most ${max} characters.`,
    /** `forWhom`: "for the shop", "for order notices"... */
    emailRequired: (forWhom: string) => `Please enter an email address ${forWhom}.`,
    emailInvalid: (forWhom: string) => `Please enter a valid email address ${forWhom}.`,
    emailTooLong: `An email address can be at most ${MAX_EMAIL_LENGTH} characters.`,
    accountNumberInvalid: "The account number must be 6 to 16 digits.",
    branchCodeInvalid: "The branch code must be 6 digits.",
    accountTypeInvalid: `Please choose the account type: ${BANK_ACCOUNT_TYPES.join(", ")}.`,
    phoneInvalid: "Please enter a valid phone number.",
    unpaidDaysInvalid: `Please enter a whole number of days from 0 to ${MAX_UNPAID_ORDER_DAYS} (0: never cancel).`,
    lastSaved: (when: string, by: string | null) => `Last saved ${when}${by ? ` by ${by}` : ""}.`,
  },
  contact: {
    sent: (name: string) => `Thank you, ${name}. Your message has been sent and we will get back to you within one working day.`,
    failed: "Your message could not be sent. Please try again.",
    nameRequired: "Please enter your name.",
    messageRequired: "Please enter a message.",
    phoneInvalid: "Please enter a valid phone number.",
    tooLong: (field: string, max: number) => `${field} can be at most ${max} characters.`,
    messageGone: "That message no longer exists.",
    /** The sender's account was deleted (another tab) while the message was on its way. */
    signedOut: "You were signed out while sending, so your message was not sent. Please send it again.",
  },
  auth: {
    fillAllFields: "Please fill in all fields",
    passwordsDoNotMatch: "Passwords do not match",
    agreeToTerms: "Please agree to the Terms & Privacy Policy",
    emailInUse: "This email address is already in use.",
    weakPassword: "The password is too weak. Please use at least 6 characters.",
    signUpFailed: "An error occurred during sign-up.",
    signUpSuccess: "Sign-up successful 🎉",
    checkInbox: "Sign-up successful 🎉 Please check your inbox: we sent you a link to confirm your e-mail address.",
    emailNotConfirmed: "Please confirm your e-mail address first: open the link we sent you when you signed up.",
    confirmationResent: "If that address is waiting to be confirmed, we have sent the link again. Please check your inbox.",
    resendLimited: "Too many confirmation e-mails were sent. Please wait a few minutes and try again.",
    signInSuccess: "Sign-in successful ✅",
    googleSignInSuccess: "Google sign-in successful",
    /** Sign-in errors show as 'Error: ' + the provider's message. */
    errorPrefix: "Error: ",
    invalidCredentials: "Invalid login credentials",
    invalidEmail: "Please enter a valid email address.",
    nameTooLong: `Your name can be at most ${MAX_NAME_LENGTH} characters.`,
    emailTooLong: `Your email address can be at most ${MAX_EMAIL_LENGTH} characters.`,
    passwordTooLong: `Your password can be at most ${MAX_PASSWORD_LENGTH} characters.`,
    tooManyAttempts: (minutes: number) =>
      `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    googleNotConfigured,
    googleFailed,
    signInRequired: "Please sign in first.",
    /** Shown above the sign-in form, by the `reason` a guard sent the visitor with. */
    signInReason: {
      profile: signInToViewProfile,
      cart: "Please sign in to view your cart.",
      checkout: "Please sign in to check out.",
      admin: "Please sign in to open the admin pages.",
      shop: signInToAddToCart,
      quotes: "Please sign in to request a quote.",
    } satisfies Record<SignInReason, string>,
    /** Why a Google sign-in came back without a session, by the callback's `reason` code. */
    googleFailure: {
      cancelled: "Google sign-in was cancelled.",
      not_configured: googleNotConfigured,
      failed: googleFailed,
    },
    adminsOnly: "This page is for admins only.",
    /** A request without Host or Origin on a shop without SITE_URL: no link back to the shop can be made. */
    unknownOrigin: "This request does not say which address it was sent to, so no link back to the shop can be made. Please use the shop's website.",
  },
  admin: {
    fetchProductsFailed: "Failed to fetch products",
    fetchCategoriesFailed: "Failed to fetch categories",
    addProductFailed: "Failed to add product",
    addCategoryFailed: "Failed to add category",
    deleteProductFailed: "Failed to delete product",
    updateAvailabilityFailed: "Failed to update availability",
    productRequired: "Name, price, image, and category are required",
    /** Editing a product: its image is kept unless a new one is chosen, so only these are required. */
    productUpdateRequired: "Name, price and category are required",
    priceInvalid: "Please enter a price in rands greater than 0, e.g. 149.50.",
    /** Options and variants (the product's "Options and stock" panel). */
    variants: {
      loadFailed: "Failed to load the product's options and variants.",
      saveFailed: "Failed to save. Please try again.",
      optionsSaved: (name: string, count: number) => `${name} now has ${count} variant${count === 1 ? "" : "s"}.`,
      variantsSaved: (name: string) => `${name}'s variants saved.`,
      optionNameRequired: "Please give each option a name, e.g. Size.",
      optionNameTooLong: "An option's name can be at most 40 characters.",
      optionNamesDistinct: "Two options cannot have the same name.",
      choicesRequired: "Please give each option at least one choice, e.g. S, M, L.",
      choiceTooLong: "A choice can be at most 40 characters.",
      choicesDistinct: "An option cannot list the same choice twice.",
      tooManyOptions: "A product can have at most 3 options.",
      tooManyChoices: "An option can have at most 30 choices.",
      tooManyVariants: "Those options make more than 100 combinations. Please use fewer choices.",
      skuInvalid: "A SKU can be at most 64 characters.",
      skuTaken: (sku: string) => `The SKU ${sku} is already used by another variant.`,
      stockInvalid: "Please enter stock as a whole number from 0 to 1,000,000, or leave it empty not to count it.",
      variantUnknown: "A variant was changed or removed meanwhile. Please reload the page.",
      stockChanged: (label: string, now: number | null) =>
        `The stock of ${label} changed while you were editing (${now === null ? "it is no longer counted" : `it is now ${now}`}). Nothing was saved: please check it and save again.`,
      pictureUnknown: "That picture was removed meanwhile. Please choose another.",
      pictureNone: "The product's picture",
      personalisationSaved: (name: string) => `${name}'s personalisation saved.`,
      fieldLabelRequired: "Please give each personalisation field a label, e.g. Name on the shirt.",
      fieldLabelTooLong: "A field's label can be at most 60 characters.",
      fieldLengthInvalid: "A text field needs a maximum length from 1 to 500 characters.",
      tooManyFields: "A product can ask for at most 5 personalisation fields.",
    },
    categoryExists: (name: string) => `A category called '${name}' already exists.`,
    categoryAdded: (name: string) => `Category '${name}' added.`,
    productAdded: (name: string) => `${name} added to the shop.`,
    productDeleted: (name: string) => `${name} deleted.`,
    productUpdated: (name: string) => `${name} updated.`,
    updateProductFailed: "Failed to update product",
    availabilityChanged: (name: string, available: boolean) => `${name} is now ${available ? "available" : "unavailable"}.`,
    deleteConfirm: (name: string) => `Delete ${name}? Past orders keep their copy of it.`,
    loadingProducts: "Loading products...",
    noProducts: "No products available.",
    authenticating: "Authenticating...",
  },
  profile: {
    signInToView: signInToViewProfile,
    noHistory: "No purchase history available.",
    uploadFailed: "Failed to upload profile picture.",
    uploaded: "Profile picture updated.",
    /** A picture that arrives for an account deleted meanwhile (e.g. in another tab): nothing is kept. */
    accountGone: "This account has been deleted, so the picture was not kept.",
    deleteFailed: "Failed to delete profile. Please try again or re-authenticate.",
    deleteConfirm: "Are you sure you want to delete your profile? This action cannot be undone.",
    /** Under an order's status in the purchase history, when the shop changed it (e.g. cancelled it unpaid). */
    changedByShop: (status: string, reason: string) => `${status} by the shop: ${reason}.`,
  },
  adminOrders: {
    title: "Order Management",
    loading: "Loading orders...",
    loadFailed: "Failed to load orders.",
    noneWithStatus: (filter: string) => `No orders found with status '${filter}'.`,
    updated: (id: string, status: string) => `Order ${id} status updated to ${status}.`,
    updateFailed: "Failed to update order status. Please try again.",
    /** Taking a cancelled order back whose counted stock has been sold meanwhile. */
    reopenOutOfStock: "This order cannot be reopened: some of its items have sold out since it was cancelled. Restock them first.",
    /** Taking a cancelled order back whose bookings were freed when it was cancelled. */
    reopenBooked: "This order cannot be reopened: its bookings were freed when it was cancelled. The customer can book again.",
    unknownPage: "That page of orders is not known. Please reload the page.",
    loadMore: "Load more orders",
    loadingMore: "Loading more orders...",
    /** Under the list: how many of the tab's orders are on screen. */
    showing: (shown: number, total: number) => `Showing ${shown} of ${total} order${total === 1 ? "" : "s"}.`,
    searchLabel: "Search by reference, customer name or email",
    searchPlaceholder: "Reference (ORD-…), name or email",
    exportCsv: "Export CSV",
    /** In an order's status history, after the new status, for a change the shop made itself. */
    byShop: (reason: string) => `by the shop: ${reason}`,
    /** What public.cancel_unpaid_orders() records as the reason (the same words, from SQL). */
    unpaidReason: (days: number) => `not paid within ${days} day${days === 1 ? "" : "s"}`,
    exportAdminsOnly: "Only admins can export orders.",
    exportBadFilter: "That filter is not valid, so nothing was exported.",
    orderGone: "That order no longer exists.",
  },
  adminNotices: {
    /** `total` as the shop shows amounts (formatRand): R250, R149.50. */
    newOrder: (reference: string, customerName: string, total: string) => `New order ${reference} from ${customerName} — ${total}`,
    /** A new order with a booking (docs/bookings.md): the service and its time come first. */
    newBooking: (service: string, when: string, reference: string, customerName: string) => `New booking: ${service} on ${when} — ${reference} from ${customerName}`,
    /** When the order's details could not be read (gone again, or the network failed). */
    newOrderUnnamed: "New order received",
    newMessage: (name: string) => `New message from ${name}`,
    newMessageUnnamed: "New contact message received",
    /** A counted variant came to its low-stock mark ("Golf shirt — L / Navy"). */
    lowStock: (name: string, left: number) => `Low stock: ${name} — ${left} left`,
    lowStockUnnamed: "A product is running low on stock",
    openStock: "Open Dashboard",
    newQuote: (customerName: string) => `New quote request from ${customerName}`,
    newQuoteUnnamed: "New quote request received",
    openQuotes: "Open Quotes",
    openOrders: "Open Orders",
    openMessages: "Open Messages",
    dismiss: "Dismiss notification",
    region: "Notifications",
    /** After the count on the admin navigation's Orders and Messages: "Orders 2 new". */
    unseen: "new",
    /** The sound switch's name (its state is its checked state); `soundShort` is what it shows. */
    sound: "Sound for new orders and messages",
    soundShort: "Sound",
  },
  /** The admin's names for the statuses (filters and the status dropdown). */
  adminStatus: {
    pending_payment: "Pending Payment",
    pending_delivery: "Pending Delivery",
    complete: "Complete",
    cancelled: "Cancelled",
  },
  /** WhatsApp's own words for the parts of its templates (src/server/messaging/templates.ts) and its replies. */
  whatsapp: {
    /** The one reply to a STOP (then nothing more is sent there). */
    stopConfirmed: "You will get no more WhatsApp messages from us: your order updates go by e-mail again. You can choose WhatsApp again on your profile.",
    payOnline: (url: string) => `Pay online with PayFast on your order's page: ${url}`,
    proofReceived: "We have your proof of payment and will tell you when the payment arrives.",
    payByTransfer: (reference: string, url: string) => `Please pay by bank transfer with ${reference} as the reference; the bank details are on your order's page: ${url}`,
    fulfilment: { delivery: "out for delivery", collection: "ready for collection" },
    /** After "we have received your payment": what happens next. */
    nextStep: {
      delivery: (day: string) => `It will be out for delivery on ${day}. Thank you!`,
      collection: (day: string) => `It will be ready for collection on ${day}. Thank you!`,
    },
    thankYou: "Thank you!",
    cancelledUnpaid: (days: number) => `Cancelled (not paid within ${days} day${days === 1 ? "" : "s"})`,
    /** How a new order is paid, in the owner's new-order alert. */
    howPaid: (method: "bank_transfer" | "payfast", proofUploaded: boolean) =>
      method === "payfast" ? "paying online with PayFast" : proofUploaded ? "bank transfer, proof of payment attached" : "bank transfer, no proof of payment yet",
  },
  /** WhatsApp's settings in Shop settings (admins; docs/whatsapp.md): the token and secrets are never shown again. */
  whatsappSettings: {
    title: "WhatsApp",
    intro: "Order updates on WhatsApp for customers who choose it, and your own alerts of new orders and bookings. The four settings come from your Meta app (docs/whatsapp.md).",
    enabled: "WhatsApp on",
    enabledDetail: "Off: every notice goes by e-mail, and customers are not offered WhatsApp.",
    phoneNumberId: "Phone number ID",
    accessToken: "Access token",
    appSecret: "App secret",
    verifyToken: "Webhook verify token",
    verifyTokenHint: "Your own string of at least 16 characters; enter the same one in Meta's webhook settings.",
    ownerHeading: "Your own alerts",
    ownerPhone: "Your mobile number on WhatsApp",
    ownerAlerts: "New-order and new-booking alerts on WhatsApp",
    ownerAlertsDetail: "A short message to your number for each new order and each new booking. If one cannot be delivered, it comes by e-mail to the order-notice address.",
    save: "Save WhatsApp settings",
    saving: "Saving...",
    saved: "WhatsApp settings saved.",
    savedIncomplete: "Saved, but WhatsApp stays off until the phone number ID, access token, app secret and verify token are all set.",
    saveFailed: "Could not save the WhatsApp settings. Please try again.",
    fromEnvironment: "Nothing is saved here yet: the server's WHATSAPP_* settings are in use. Saving this form keeps them here, and from then on these settings are the ones used.",
    statusOn: "WhatsApp is on.",
    statusOff: "WhatsApp is off: notices go by e-mail.",
    statusIncomplete: "WhatsApp is switched on but some of its settings are missing, so it is off.",
    phoneNumberIdInvalid: "The phone number ID is the number Meta shows under API Setup (digits only, not the phone number).",
    phoneNumberIdRequired: "Enter the phone number ID to switch WhatsApp on.",
    secretInvalid: "Paste it without spaces (at most 1000 characters).",
    verifyTokenInvalid: "The verify token must be 16 to 200 characters without spaces.",
    ownerPhoneRequired: "Enter your mobile number to get alerts on WhatsApp.",
  },
  /**
   * The consent choices (POPIA; issue 40): each label and its detail are the exact words shown,
   * and are stored with the consent (consentWords()). Changing them changes what new consents record.
   */
  consent: {
    heading: "WhatsApp",
    intro: "Choose how we may reach you on WhatsApp. Each choice is separate, and you can change your mind at any time here or by replying STOP.",
    phoneLabel: "Mobile number on WhatsApp",
    phoneHint: "A South African number (082 123 4567) or an international one with its country code (+44 7911 123456).",
    invalidPhone: "Enter a mobile number we can reach on WhatsApp, such as 082 123 4567 or +44 7911 123456.",
    whatsappUpdates: "Send my order updates on WhatsApp",
    whatsappUpdatesDetail: "Order received, payment confirmed, delivery or collection day and status changes, instead of by e-mail. Reply STOP to stop at once.",
    offers: "Send me offers",
    offersDetail: "Now and then, news of offers on WhatsApp. Separate from your order updates.",
    given: (label: string, at: string, phone: string) => `“${label}”: yes, since ${at}, to ${phone}.`,
    saved: "Your choice is saved.",
    withdrawn: "Done: we will not send these on WhatsApp.",
    failed: "Your choice could not be saved. Please try again.",
    loadFailed: "Your WhatsApp choices could not be loaded.",
  },
  orderStatus: {
    pending_payment: "Pending Payment Verification",
    pending_delivery: "Pending Delivery",
    complete: "Complete",
    cancelled: "Cancelled",
  },
} as const;

/** Live updates' texts. */
export const liveMessages = {
  /** Admins' status line while Supabase Realtime is unreachable; `seconds` is the polling interval. */
  paused: (seconds: number) => `Live updates paused: reconnecting. Orders refresh every ${seconds} seconds.`,
} as const;

/**
 * The sign-in page's notice when /auth/callback could not sign the browser in from an e-mailed
 * link, by the link's flow (`error=`) and why (`reason=`). Magic links and password recovery are
 * not offered today; their texts are here so such a link is still told in its own words.
 */
export const authLinkMessages = {
  signup: {
    expired:
      "This confirmation link has expired or was already used. If you have confirmed your address already, just sign in; otherwise sign in and you can have a new link sent.",
    /** Supabase Auth confirmed the address, but the link was opened in another browser or device. */
    other_browser: "Your e-mail address is confirmed 🎉 Please sign in with your email and password.",
  },
  magiclink: {
    expired: "This sign-in link has expired or was already used. Please sign in again.",
    other_browser: "This sign-in link was opened in a different browser from the one that asked for it. Please sign in here.",
  },
  recovery: {
    expired: "This password reset link has expired or was already used. Please sign in again.",
    other_browser: "This password reset link was opened in a different browser from the one that asked for it. Please sign in here.",
  },
  email_change: {
    expired: "This e-mail change link has expired or was already used. Please sign in and ask for a new one from your profile.",
    other_browser: "This e-mail change link was opened in a different browser from the one that asked for it. Please sign in here.",
  },
} as const;

/** The profile's purchase history when the orders cannot be loaded. */
export const purchaseHistoryMessages = {
  loadFailed: "Your purchase history could not be loaded. Please check your connection and try again.",
  retry: "Try again",
  retrying: "Trying again...",
} as const;

/** Invoices and credit notes (issue 26): settings, the buyer's details, downloads. */
export const invoiceMessages = {
  settingsTitle: "Invoices and VAT",
  saved: "Invoice settings saved. Invoices issued from now on use them; issued ones never change.",
  saveFailed: "Failed to save the invoice settings. Please try again.",
  loadFailed: "Failed to load the invoice settings.",
  vatNumberInvalid: "A VAT number is 10 digits starting with 4.",
  vatNumberRequired: "Please enter the VAT number, or untick VAT-registered.",
  legalNameRequired: "Please enter the legal name printed on invoices.",
  legalAddressRequired: "Please enter the address printed on invoices.",
  tooLong: (label: string, max: number) => `${label} can be at most ${max} characters.`,
  prefixInvalid: "The prefix is 1 to 12 capital letters, digits, dashes or slashes, starting with a letter or digit (e.g. INV-).",
  detailsTitle: "Invoice details (optional)",
  detailsHint: "For a tax invoice in your company's name: SARS needs the buyer's name and address above R5,000, and your VAT number if you have one.",
  detailsSaved: "Invoice details saved.",
  detailsSaveFailed: "Failed to save the invoice details. Please try again.",
  notFound: "This invoice does not exist, or it is not yours.",
  signInToDownload: "Please sign in to download your invoice.",
  download: (number: string) => `Invoice ${number} (PDF)`,
  downloadCredit: (number: string) => `Credit note ${number} (PDF)`,
} as const;

/** The sales overview (issue 26). */
export const overviewMessages = {
  title: "Overview",
  loadFailed: "Failed to load the sales overview.",
  rangeInvalid: "Please choose a start date on or before the end date, at most 366 days apart.",
  noSales: "No paid orders in this range.",
} as const;

/** Account recovery and account settings (issue 34): "Forgot password?", reset links, password and e-mail changes. */
export const accountMessages = {
  forgotLink: "Forgot password?",
  /** The same answer whether or not the address has an account. */
  resetRequested:
    "If an account uses that address, we have sent it a link to set a new password. The link works once, for one hour. Please check your inbox.",
  resetLimited: "Too many password reset e-mails were asked for. Please wait a while and try again.",
  resetRequestFailed: "The password reset e-mail could not be sent. Please try again.",
  resetLinkInvalid: "This password reset link has expired, was already used or is not valid. Nothing was changed. Please ask for a new link.",
  passwordReset: "Your new password is set and you are signed in. Every other session of your account has been signed out.",
  resetFailed: "Your password could not be changed. Please try again.",
  currentPasswordRequired: "Please enter your current password.",
  currentPasswordWrong: "Your current password is not correct. Nothing was changed.",
  passwordChanged: "Your password has been changed. Every other session of your account has been signed out.",
  changePasswordFailed: "Your password could not be changed. Please try again.",
  emailUnchanged: "That is already your e-mail address.",
  emailChangeRequested: (email: string) =>
    `We have sent a link to ${email}. Open it to confirm your new address; until then you sign in with your current one.`,
  emailChangeFailed: "Your e-mail address could not be changed. Please try again.",
  emailChangeLinkInvalid: "This e-mail change link has expired, was already used or is not valid. Nothing was changed. Please ask for a new one from your profile.",
  emailChanged: (email: string) => `Your e-mail address is now ${email}.`,
  /** Google-only accounts have no password to check. */
  noPasswordYet: 'Your account has no password yet. Use "Forgot password?" on the sign-in page to set one.',
} as const;

/** One order's own page (/profile/orders/<reference>) and the links to it. */
export const orderPageMessages = {
  title: (reference: string) => `Order ${reference}`,
  /** orders.byReference with something that is not a reference (ORD-123). */
  invalidReference: "That is not an order reference (ORD- and a number).",
  /** orders.byReference for an order that does not exist or is not the caller's. */
  notFound: "This order does not exist, or it is not yours.",
  view: "View order",
  /** Checkout with an empty cart, right after an order: where that order can be seen (and paid). */
  lastOrder: (reference: string) => `Your order ${reference} is placed: view it, its payment details and its status.`,
  placed: (date: string) => `Placed ${date}`,
  statusHistory: "Status history",
  /** While unpaid and a bank transfer is still to be checked or made: the account and the reference. */
  payByTransfer: "Pay by bank transfer with this reference:",
  proofReceived: "We have your proof of payment and will confirm once we've checked it.",
  /** Under proofReceived, as the order mail says it: the details stay for a transfer not made yet. */
  payByTransferLater: "If you have not made the transfer yet, pay into this account with this reference:",
  uploadProof: "Upload proof of payment",
  backToHistory: "Back to your purchase history",
} as const;

/** The shop's opening hours (Shop settings → Delivery and collection; checkout, mails). */
export const openingHoursMessages = {
  legend: "Opening hours (collection and delivery days follow them)",
  /** Shop settings' contact details: where the hours they show come from. */
  shownFrom: "The footer, contact page and terms show the opening hours set under Delivery and collection.",
  closedAllWeek: "Closed every day of the week",
  timeInvalid: "Please enter the times as HH:MM, e.g. 09:00.",
  closesBeforeOpens: (day: string) => `${day}: the closing time must be after the opening time.`,
  noOpenDay: "Please open the shop on at least one day of the week.",
  weekInvalid: "Please give the hours of each day of the week once.",
} as const;

/** The go-live checklist (Shop settings) and the admin pages' banner while it is not empty (issue 34). */
export const goLiveMessages = {
  title: "Before you go live",
  intro: "These settings still hold the demo values the shop ships with, or are missing. Customers would see them as yours, or the shop cannot work properly without them.",
  developmentNote: "In production every admin page shows a banner until this list is empty.",
  /** The footer while every contact detail is still a demo value (left out in production). */
  footerContactLink: "Send us a message",
  done: "Everything is set up: no demo values or missing settings left.",
  fix: "Fix",
  banner: (count: number) => `${count} ${count === 1 ? "setting is" : "settings are"} still a demo value or missing (the go-live checklist in Shop settings).`,
  items: {
    bank: { title: "Bank account", detail: "Still the demo account: checkout takes no bank transfers in production." },
    phone: { title: "Shop phone", detail: "Still the demo number: the footer, contact page and terms leave it out in production." },
    email: { title: "Shop email", detail: "Still the demo address: the footer, contact page and terms leave it out in production." },
    address: { title: "Shop address", detail: "Still the demo address: the footer, contact page and terms leave it out in production." },
    informationOfficer: { title: "Information officer", detail: "No officer named yet: the privacy notice names the business as responsible and sends requests to the shop's email." },
    invoiceDetails: { title: "Legal name, address and VAT number on invoices", detail: "Invoices would print the demo business's name or address (or no VAT number while the shop is VAT-registered)." },
    collection: { title: "Collection address", detail: "Collection is on with the demo address: customers would go to the wrong place." },
    payfastSandbox: { title: "PayFast sandbox", detail: "Pay now uses PayFast's sandbox: no real money is taken. Untick Sandbox and enter the live account." },
    siteUrl: { title: "The shop's public address (SITE_URL)", detail: "SITE_URL is not set to an https:// address on the server. PayFast's return and notify addresses and the links in mails are built from it (README, Deploying)." },
    mail: { title: "Mail delivery (SMTP_URL)", detail: "No SMTP server is set on the server, so no mail reaches customers or the shop; they wait in the Outbox until SMTP_URL is set." },
    whatsapp: {
      title: "WhatsApp settings",
      detail: "WhatsApp is switched on without all four of its settings (phone number ID, access token, app secret, webhook verify token), so it is off: customers get e-mail only and your alerts are not sent. Complete them under WhatsApp in Shop settings (docs/whatsapp.md).",
    },
  },
} as const;

/** Quotes (issue 39, docs/quotes.md): asking, pricing, deciding. */
export const quoteMessages = {
  title: "Request a quote",
  intro: "Tell us what you need and we'll send you a priced quote. You can accept it, ask for a change or decline it.",
  requestButton: "Request a quote",
  /** On the cart: the cart's lines as a quote request (bulk). */
  askForTheseButton: "Ask for a quote for these",
  /** A product the owner sells by quote only: the cart refuses it. */
  quoteOnly: "This is sold by quote: please request a quote for it.",
  /** The owner's setting per product (the product dashboard). */
  modeLabel: "Request a quote",
  modes: { off: "Not offered", beside: "Beside Add to Cart", instead: "Instead of Add to Cart" },
  modeSaved: (name: string) => `${name}: quote setting saved.`,
  modeFailed: "The quote setting could not be saved. Please try again.",
  signInToAsk: "Please sign in to request a quote.",
  descriptionLabel: "What do you need?",
  descriptionRequired: "Please describe what you need (up to 5,000 characters).",
  itemsLabel: "Products and quantities",
  quantityInvalid: "Each quantity is a whole number from 1 to 100,000.",
  tooManyItems: "A request can name at most 50 products.",
  preferredDateLabel: "Preferred date (optional)",
  dateInvalid: "Please choose a preferred date from today, within two years.",
  companyLabel: "Company name (optional)",
  companyTooLong: "The company name can be at most 120 characters.",
  vatNumberLabel: "VAT number (optional)",
  vatNumberInvalid: "A VAT number is 10 digits starting with 4.",
  filesLabel: "Files (optional, up to 5: PNG, JPEG, WebP or PDF, 10 MB each)",
  tooManyFiles: "You can send at most 5 files with a request.",
  filesInvalid: "A file could not be used with this request. Please upload it again.",
  uploadFailed: "The file could not be uploaded. Please try again.",
  requested: "Your quote request has been sent. We'll let you know when your quote is ready.",
  sending: "Sending...",
  uploading: "Uploading...",
  removeFile: "Remove file",
  removeItem: "Remove",
  requestFailed: "Your quote request could not be sent. Please try again.",
  productUnavailable: "A product in your request is no longer in the shop. Please remove it and try again.",
  /** The profile's list. */
  listTitle: "Quotes",
  none: "You have not asked for a quote yet.",
  loadFailed: "Failed to load quotes.",
  notFound: "This quote does not exist, or it is not yours.",
  view: "View quote",
  requestedOn: (date: string) => `Requested ${date}`,
  waiting: "We're preparing your quote.",
  validUntil: (date: string) => `Valid until ${date}`,
  version: (n: number) => `Version ${n}`,
  fromQuote: (number: string) => `from quote ${number}`,
  purchaseOrderShown: (number: string) => `your purchase order ${number}`,
  /** Deciding. */
  decisionTitle: "Your decision",
  declineTitle: "Declined",
  backToQuotes: "Back to your quotes",
  confirmDecline: "Decline quote",
  acceptSubmit: "Accept and place the order",
  sendChange: "Send message",
  pricesIncludeVat: "Prices include VAT where the shop charges it, as on our invoices.",
  termsTitle: "Terms",
  noteTitle: "Note",
  requestTitle: "What you asked for",
  conversationTitle: "Messages",
  olderVersions: "Earlier versions",
  orderLink: (reference: string) => `Your order ${reference}: view and pay it`,
  requestHeading: (number: string | null) => (number ? `Quote ${number}` : "Quote request"),
  pdf: (number: string) => `Quote ${number} (PDF)`,
  acceptButton: "Accept quote",
  accepting: "Accepting...",
  purchaseOrderLabel: "Your purchase-order number (optional)",
  purchaseOrderTooLong: "The purchase-order number can be at most 60 characters.",
  accepted: (reference: string) => `Quote accepted. Your order ${reference} is waiting for payment.`,
  acceptedNothingDue: (reference: string) => `Quote accepted. Your order ${reference} is placed: nothing is due now.`,
  declineButton: "Decline",
  declineReasonLabel: "Why are you declining? (required)",
  declineReasonRequired: "Please say why you are declining (up to 1,000 characters).",
  declined: "Quote declined. Thank you for letting us know.",
  changeButton: "Ask for a change",
  changeLabel: "What should change?",
  changeRequired: "Please say what should change (up to 2,000 characters).",
  changeAsked: "Your message has been sent. We'll send you a revised quote.",
  decideFailed: "That did not work. Please try again.",
  expired: "This quote has expired and can no longer be accepted. Please ask for a new one.",
  superseded: "This quote was replaced by a revised version. Please open the latest version.",
  declinedAlready: "This quote was declined and can no longer be accepted.",
  acceptedAlready: "This quote was accepted already.",
  notOpen: "This quote can no longer be changed.",
  notEnoughStock: (name: string, left: number) => `Not enough of ${name} is left (${left}). Please ask us for a revised quote.`,
  /** Accepting asks delivery or collection where the quote has goods, and a time for each booked service. */
  slotTaken: (name: string, when: string) => `${name} at ${when} has just been booked by someone else. Please choose another time.`,
  slotRequired: (name: string) => `Please choose a time for ${name}.`,
  slotsInvalid: "Please choose the times again.",
  chooseTimeFor: (name: string) => `${name}: choose a time`,
  deliveryQuoted: "Delivery is priced in this quote: no delivery fee is added.",
  totalWithDelivery: "Total with delivery",
  /** The sales overview's quote figures. */
  overviewTitle: "Quotes",
  overviewSent: "Quotes sent",
  overviewAccepted: "Quotes accepted",
  overviewValue: (amount: string) => `worth ${amount}`,
  /** Admin: the inbox and the builder. */
  inboxTitle: "Quotes",
  inboxEmpty: "No quote requests yet.",
  newRequest: "New request",
  draftHeading: (version: number) => `Draft of version ${version}`,
  variantLabel: (n: number) => `Line ${n}: product`,
  descriptionOfLine: (n: number) => `Line ${n}: description`,
  pickVariant: "Choose a product",
  listPrice: (price: string) => `List price R${price}`,
  quantityLabel: "Quantity",
  unitPriceLabel: "Unit price (R, incl. VAT)",
  validUntilLabel: "Valid until",
  termsLabel: "Terms",
  noteLabel: "Note to the customer",
  revise: "Revise: start a new version",
  builderIntro: "Build the quote from catalogue lines (the price may differ from the list price) and custom lines. Saving keeps a draft; sending numbers it and mails the customer.",
  builderTitle: (number: string | null) => (number ? `Quote ${number}` : "New quote"),
  addCatalogueLine: "Add a catalogue line",
  addCustomLine: "Add a custom line",
  lineDescriptionRequired: "Each custom line needs a description (up to 500 characters).",
  linePriceInvalid: "Each line needs a price above R0 with at most two decimals.",
  linesRequired: "A quote needs at least one line (at most 100).",
  validityRequired: "Please choose a validity date from today.",
  termsTooLong: "The terms can be at most 4,000 characters.",
  noteTooLong: "The note can be at most 4,000 characters.",
  saveDraft: "Save draft",
  draftSaved: "Draft saved.",
  send: "Send quote",
  sent: (number: string) => `Quote ${number} sent to the customer.`,
  saveFailed: "The quote could not be saved. Please try again.",
  closed: "A version of this quote was accepted: it can no longer be changed.",
  notDraft: "Only a draft can be sent. Reload to see the latest version.",
  changeRequested: "The customer asked for a change",
  /** How each state reads. */
  states: {
    requested: "Requested",
    draft: "Draft",
    sent: "Awaiting your decision",
    accepted: "Accepted",
    declined: "Declined",
    superseded: "Replaced by a revision",
    expired: "Expired",
  },
} as const;
