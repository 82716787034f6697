import { adminProcedure, createTRPCRouter } from "@/server/api/trpc";
import { addCategory, categories, createProduct, deleteProduct, listProducts, setAvailability, updateProduct } from "./manage-products";
import { availabilityInput, categoryNameInput, createProductInput, productIdInput, updateProductInput } from "./schemas";

/** Product Management (admins only; RLS checks again). */
export const adminProductsRouter = createTRPCRouter({
  /** Every product, available or not, newest first. */
  list: adminProcedure.query(listProducts),
  categories: adminProcedure.query(categories),
  addCategory: adminProcedure.input(categoryNameInput).mutation(addCategory),
  create: adminProcedure.input(createProductInput).mutation(createProduct),
  update: adminProcedure.input(updateProductInput).mutation(updateProduct),
  setAvailability: adminProcedure.input(availabilityInput).mutation(setAvailability),
  delete: adminProcedure.input(productIdInput).mutation(deleteProduct),
});
