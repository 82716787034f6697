import { notFound } from "next/navigation";
import { findProduct } from "./find-product";

/**
 * Answers an unknown or malformed product id with a real 404: the check runs here, above the
 * page's loading state, so it happens before anything streams (the page's own read is then a
 * cache hit).
 */
export default async function ProductLayout({ children, params }: LayoutProps<"/products/[id]">) {
  const { id } = await params;
  if (!(await findProduct(id))) notFound();
  return children;
}
