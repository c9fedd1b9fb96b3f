/** Small statistics helpers shared by the scenarios. */

/** The q-quantile (0..1) of `values`, by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Rounds to three decimals for printing. */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
