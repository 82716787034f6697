import { messages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter } from "@/server/api/trpc";
import { addCategory, categories, createProduct, deleteProduct, listProducts, setAvailability, updateProduct } from "./manage-products";
import { availabilityInput, categoryNameInput, createProductInput, productIdInput, updateProductInput } from "./schemas";

/** Product Management (admins only; RLS checks again). */
export const adminProductsRouter = createTRPCRouter({
  /** Every product, available or not, newest first. */
  list: adminProcedure.meta({ failure: messages.admin.fetchProductsFailed }).query(listProducts),
  categories: adminProcedure.query(categories),
  addCategory: adminProcedure.meta({ failure: messages.admin.addCategoryFailed }).input(categoryNameInput).mutation(addCategory),
  create: adminProcedure.meta({ failure: messages.admin.addProductFailed }).input(createProductInput).mutation(createProduct),
  update: adminProcedure.meta({ failure: messages.admin.updateProductFailed }).input(updateProductInput).mutation(updateProduct),
  setAvailability: adminProcedure.meta({ failure: messages.admin.updateAvailabilityFailed }).input(availabilityInput).mutation(setAvailability),
  delete: adminProcedure.meta({ failure: messages.admin.deleteProductFailed }).input(productIdInput).mutation(deleteProduct),
});
