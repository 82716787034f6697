import "server-only";

import { createCaller } from "@/server/api/root";
import { getRequestContext } from "./request-context";

/**
 * How pages and layouts read data: the same procedures as the browser, called in-process with
 * this request's context (resolved once per request). Kept apart from `./server` (which adds React
 * Query's hydration for client components), so a layout that only reads pulls in nothing else.
 */
export const caller = createCaller(getRequestContext);
