import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH } from "./constants";

/**
 * Every user-facing message text from the spec, in one place: the UI, the server and the tests
 * all use these, so a text changes here or nowhere.
 */
export const messages = {
  loading: "Loading...",
  catalogue: {
    productNotFound: "Product not found.",
    loadingProduct: "Loading product details...",
    emptyCategory: "No products found for this category.",
    fetchProductsFailed: "Failed to fetch products",
    fetchCategoriesFailed: "Failed to fetch categories",
  },
  auth: {
    fillAllFields: "Please fill in all fields",
    passwordsDoNotMatch: "Passwords do not match",
    agreeToTerms: "Please agree to the Terms & Privacy Policy",
    emailInUse: "This email address is already in use.",
    weakPassword: "The password is too weak. Please use at least 6 characters.",
    signUpFailed: "An error occurred during sign-up.",
    signUpSuccess: "Sign-up successful 🎉",
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
    googleNotConfigured: "Google sign-in is not configured for this shop.",
    googleFailed: "Google sign-in failed. Please try again.",
    signInRequired: "Please sign in first.",
    adminsOnly: "This page is for admins only.",
  },
  profile: {
    signInToView: "Please sign in to view your profile.",
  },
} as const;
