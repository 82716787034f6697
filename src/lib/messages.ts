/**
 * Every user-facing message text from the spec, in one place: the UI, the server and the tests
 * all use these, so a text changes here or nowhere.
 */
export const messages = {
  catalogue: {
    productNotFound: "Product not found.",
    loadingProduct: "Loading product details...",
    emptyCategory: "No products found for this category.",
    fetchProductsFailed: "Failed to fetch products",
    fetchCategoriesFailed: "Failed to fetch categories",
  },
} as const;
