/** Splits `stock` over `segments` rows as evenly as possible (the first rows get the remainder). */
export function splitStock(stock: number, segments: number): number[] {
  const base = Math.floor(stock / segments);
  const extra = stock % segments;
  return Array.from({ length: segments }, (_, i) => base + (i < extra ? 1 : 0));
}
