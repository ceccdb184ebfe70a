/** A stock row that had stock when the grab began, and how much. */
export interface OpenSegment {
  readonly index: number;
  readonly stock: number;
}

/**
 * The order a segmented grab tries the rows in. The first is drawn with a chance proportional to
 * its stock, so buyers spread as the stock does and the rows run dry together rather than the
 * last units clustering on a few. The rest follow by most stock first: where a dry row sends a
 * buyer next.
 */
export function segmentOrder(open: readonly OpenSegment[], random: () => number = Math.random): number[] {
  if (open.length === 0) return [];
  const total = open.reduce((sum, s) => sum + Math.max(0, s.stock), 0);
  let pick = open.length - 1;
  if (total > 0) {
    let point = random() * total;
    pick = open.findIndex((s) => (point -= Math.max(0, s.stock)) < 0);
    if (pick < 0) pick = open.length - 1;
  } else pick = Math.floor(random() * open.length);
  const rest = open.filter((_, i) => i !== pick).sort((a, b) => b.stock - a.stock || a.index - b.index);
  return [open[pick].index, ...rest.map((s) => s.index)];
}
