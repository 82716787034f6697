import { messages, quoteMessages } from "@/lib/messages";
import { serviceSettings, setServiceSettings } from "@/server/bookings/manage-services";
import { saveBookingInput } from "@/server/bookings/schemas";
import { adminProcedure, createTRPCRouter } from "@/server/api/trpc";
import { addCategory, categories, createProduct, deleteProduct, listProducts, setAvailability, setQuoteMode, updateProduct } from "./manage-products";
import { addPicture, listPictures, movePicture, removePicture, savePictureAlt, setCardPicture } from "./manage-pictures";
import { addPictureInput, movePictureInput, pictureAltInput, pictureIdInput, productPicturesInput } from "./picture-schemas";
import { productVariants, setOptions, setPersonalisation, setVariants } from "./manage-variants";
import { availabilityInput, categoryNameInput, createProductInput, productIdInput, quoteModeInput, saveOptionsInput, savePersonalisationInput, saveVariantsInput, updateProductInput } from "./schemas";

/** Product Management (admins only; RLS checks again). */
export const adminProductsRouter = createTRPCRouter({
  /** Every product, available or not, newest first. */
  list: adminProcedure.meta({ failure: messages.admin.fetchProductsFailed }).query(listProducts),
  categories: adminProcedure.query(categories),
  addCategory: adminProcedure.meta({ failure: messages.admin.addCategoryFailed }).input(categoryNameInput).mutation(addCategory),
  create: adminProcedure.meta({ failure: messages.admin.addProductFailed }).input(createProductInput).mutation(createProduct),
  update: adminProcedure.meta({ failure: messages.admin.updateProductFailed }).input(updateProductInput).mutation(updateProduct),
  setAvailability: adminProcedure.meta({ failure: messages.admin.updateAvailabilityFailed }).input(availabilityInput).mutation(setAvailability),
  /** "Request a quote" beside or instead of Add to Cart (docs/quotes.md). */
  setQuoteMode: adminProcedure.meta({ failure: quoteMessages.modeFailed }).input(quoteModeInput).mutation(setQuoteMode),
  /** Its options and variants ("Options and stock"). */
  variants: adminProcedure.meta({ failure: messages.admin.variants.loadFailed }).input(productIdInput).query(productVariants),
  saveOptions: adminProcedure.meta({ failure: messages.admin.variants.saveFailed }).input(saveOptionsInput).mutation(setOptions),
  saveVariants: adminProcedure.meta({ failure: messages.admin.variants.saveFailed }).input(saveVariantsInput).mutation(setVariants),
  savePersonalisation: adminProcedure.meta({ failure: messages.admin.variants.saveFailed }).input(savePersonalisationInput).mutation(setPersonalisation),
  /** Its booking settings ("Booking"; docs/bookings.md): null when it is not booked by time. */
  booking: adminProcedure.meta({ failure: messages.bookings.admin.loadFailed }).input(productIdInput).query(serviceSettings),
  saveBooking: adminProcedure.meta({ failure: messages.bookings.admin.saveFailed }).input(saveBookingInput).mutation(setServiceSettings),
  delete: adminProcedure.meta({ failure: messages.admin.deleteProductFailed }).input(productIdInput).mutation(deleteProduct),
  /** A product's pictures (issue 37): in order, with alt text, one the card's. */
  pictures: adminProcedure.meta({ failure: messages.productPictures.fetchFailed }).input(productPicturesInput).query(listPictures),
  addPicture: adminProcedure.meta({ failure: messages.productPictures.addFailed }).input(addPictureInput).mutation(addPicture),
  savePictureAlt: adminProcedure.meta({ failure: messages.productPictures.updateFailed }).input(pictureAltInput).mutation(savePictureAlt),
  movePicture: adminProcedure.meta({ failure: messages.productPictures.updateFailed }).input(movePictureInput).mutation(movePicture),
  setCardPicture: adminProcedure.meta({ failure: messages.productPictures.updateFailed }).input(pictureIdInput).mutation(setCardPicture),
  removePicture: adminProcedure.meta({ failure: messages.productPictures.removeFailed }).input(pictureIdInput).mutation(removePicture),
});
