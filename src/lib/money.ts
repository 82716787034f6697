/**
 * Rand amounts as the shop shows them (docs/architecture.md#money-statuses-and-references): prefix R, whole amounts without
 * decimals (R150), otherwise two decimals (R149.50). No thousands separators.
 */
export function formatRand(amount: number | string): string {
  const cents = toCents(amount);
  return cents % 100 === 0 ? `R${cents / 100}` : `R${(cents / 100).toFixed(2)}`;
}

/** Always two decimals (purchase history): R150.00. */
export function formatRand2(amount: number | string): string {
  return `R${(toCents(amount) / 100).toFixed(2)}`;
}

/** An average per order (the sales overview's average order value), to the cent and always two decimals: R0.00 when there were none. */
export function formatAverageRand(total: number | string, count: number): string {
  return formatRand2(count === 0 ? 0 : Math.round(toCents(total) / count) / 100);
}

/** Whole cents of a rand amount, rounding half away from zero as numeric(12,2) does. */
export function toCents(amount: number | string): number {
  const value = typeof amount === "string" ? Number(amount) : amount;
  if (!Number.isFinite(value)) throw new RangeError(`Not an amount: ${String(amount)}`);
  return Math.sign(value) * Math.round(Math.abs(value) * 100);
}
