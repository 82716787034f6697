import { MAX_CART_LINE_QUANTITY } from "./constants";

/**
 * 10000 as "10,000", without Intl: this module is evaluated as a storefront page's scripts start,
 * and building ICU's number formatter there (`toLocaleString`) cost a throttled phone 150–180 ms
 * of main thread before its first tap (BENCHMARKS.md, issue 35).
 */
function withThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Said on a card's Add to Cart and on the sign-in page when a visitor is sent from there. */
export const signInToAddToCart = "Please sign in to add items to your cart.";

/**
 * The texts the storefront's client components say (a card's Add to Cart, the product page's
 * options, personalisation, gallery and stock notices, a field's length counter), apart from the
 * rest of `messages` for the same reason as `pageMessages`: a catalogue page ships these, not the
 * 39 kB of every text the shop has. `messages` includes them, so the server and the tests read
 * them from there.
 */
export const storefrontMessages = {
  loading: "Loading...",
  /** A text field's length as it is typed (the counter under fields with a limit). */
  lengthLimit: {
    counter: (length: number, max: number) => `${length}/${max}`,
    reached: (max: number) => `That is the limit: at most ${max} characters.`,
  },
  catalogue: {
    productNotFound: "Product not found.",
    /** A counted variant's stock, as the product page and its card say it (STOCK_FEW_LEFT). */
    inStock: "In stock",
    fewLeft: (left: number) => `Only ${left} left`,
    soldOut: "Sold out",
    /** The card of a product with options: it is added from its page, where they are chosen. */
    chooseOptions: "Choose options",
    /** The product page's personalisation fields. */
    personalisationHeading: "Personalise it",
    personalisationPrice: (price: string) => `+${price} each`,
    personalisationFileSignIn: "sign in to add your file.",
    /** A product whose variants differ in price. */
    priceFrom: (price: string) => `From ${price}`,
    /** The option picker: a combination the shop does not sell. */
    combinationUnavailable: "This combination is not available.",
    /** A choice that, with the others as chosen, makes a combination the shop does not sell (screen readers). */
    notOffered: "not available with your other choices",
    productNotFoundDetail: "It may have been removed, or the link is mistyped.",
    loadingProduct: "Loading product details...",
    emptyCategory: "No products found for this category.",
    /** The products page with a search term and no hits. */
    noSearchMatches: "No products match your search.",
    fetchProductsFailed: "Failed to fetch products",
    fetchCategoriesFailed: "Failed to fetch categories",
  },
  cart: {
    added: (name: string) => `${name} added to cart.`,
    quantityUpdated: (name: string) => `${name} quantity updated in cart.`,
    removed: "Item removed from cart",
    addFailed: "Failed to add item to cart. Please try again.",
    loadFailed: "Failed to load cart items.",
    signInToAdd: signInToAddToCart,
    unavailable: "This product is currently unavailable.",
    empty: "Your cart is empty",
    customersOnly: "Carts are for customers: admins manage the shop from the dashboard.",
    /** cart.add or cart.increase on a line already at MAX_CART_LINE_QUANTITY (the cart_items check). */
    lineLimit: `You can have at most ${withThousands(MAX_CART_LINE_QUANTITY)} of one item in your cart.`,
    /** Changing a line that is gone (removed in another tab, or its product deleted). */
    lineGone: "That item is no longer in your cart.",
    /** Adding a product with options without saying which (the product page picks them). */
    variantRequired: "Please choose the options you want on the product's page first.",
    /** Adding (or adding more of) a counted variant past what is in stock. */
    notEnoughStock: "Sorry, there are no more of this item in stock.",
    /** Personalisation (the product page's fields): what was sent does not fit the product's fields. */
    personalisationInvalid: "Please check the personalisation and try again.",
    personalisationRequired: (field: string) => `Please fill in "${field}".`,
    personalisationTooLong: (field: string) => `"${field}" is too long.`,
    uploadFailed: "Failed to upload the file. Please try again.",
    /** The uploaded file, before Add to Cart. */
    fileAttached: (name: string) => `${name} is attached.`,
    /** A bookable service added without a time (the product page picks one). */
    slotRequired: "Please choose a time for this service on its page first.",
    /** A bookable service's quantity: one line is one booking. */
    oneBookingPerLine: "Each booking is its own line: add another time from the service's page.",
  },
  /** A product's pictures (issue 37): Product Management's pictures panel and the product page's gallery. */
  productPictures: {
    fetchFailed: "Failed to fetch the product's pictures",
    addFailed: "Failed to add the picture",
    updateFailed: "Failed to change the picture",
    removeFailed: "Failed to remove the picture",
    added: "Picture added.",
    altSaved: "Alt text saved.",
    moved: "Pictures reordered.",
    cardChosen: "This picture now shows on the product's card.",
    removed: "Picture removed.",
    altRequired: "Please describe each picture for people who cannot see it (alt text).",
    altTooLong: "Alt text can be at most 200 characters.",
    pictureRequired: "Please choose a picture to add.",
    tooMany: (max: number) => `A product can have at most ${max} pictures. Remove one first.`,
    lastPicture: "A product keeps at least one picture. Add another before removing this one.",
    pictureNotFound: "That picture is no longer there.",
    addedSeveral: (count: number) => `${count} pictures added.`,
    /** Product Management's pictures panel: labels that name which picture a control acts on. */
    altLabel: (position: number) => `Alt text of picture ${position}`,
    altLabelNew: (fileName: string) => `Alt text for ${fileName}`,
    saveAlt: (position: number) => `Save alt text of picture ${position}`,
    moveUp: (position: number) => `Move picture ${position} up`,
    moveDown: (position: number) => `Move picture ${position} down`,
    useOnCard: (position: number) => `Use on card: picture ${position}`,
    remove: (position: number) => `Remove picture ${position}`,
    removeConfirm: (position: number) => `Remove picture ${position}? Its file is deleted.`,
    cardPicture: "Card picture",
    loading: "Loading pictures...",
    /** The product page's gallery. */
    galleryLabel: (product: string) => `Pictures of ${product}`,
    previous: "Previous picture",
    next: "Next picture",
    show: (position: number, count: number) => `Show picture ${position} of ${count}`,
    position: (position: number, count: number) => `Picture ${position} of ${count}`,
  },
  /** What admins are told, on every admin page, of new orders and messages as they arrive. */
  /** Back-in-stock requests on a sold-out variant (docs/architecture.md#products-variants-and-stock). */
  stockNotices: {
    ask: "E-mail me when it is back",
    asked: "We will e-mail you once when it is back in stock.",
    withdraw: "Don't e-mail me",
    withdrawn: "We will not e-mail you about it.",
    signInToAsk: "Please sign in to be e-mailed when it is back.",
    signIn: "Sign in",
    notSoldOut: "This item is not sold out, so there is nothing to wait for.",
    notAsked: "You had not asked to be e-mailed about this item.",
    askFailed: "Could not save your request. Please try again.",
    withdrawFailed: "Could not take your request back. Please try again.",
    loadFailed: "Could not load stock notices. Please try again.",
    noticeGone: "That stock notice is no longer there.",
  },
};
