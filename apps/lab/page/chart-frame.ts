/** What the page's charts over time share: their margins, their scales and their axes (pure, no DOM). */

const PAD = { left: 44, right: 12, top: 10, bottom: 26 };

/** A coordinate, to a tenth of a pixel. */
export const n = (value: number) => (Math.round(value * 10) / 10).toString();

export interface TimeFrame {
  /** Epoch ms to x: the first reading at the left, the last at the right (one second at least). */
  readonly x: (at: number) => number;
  /** A count to y: 0 on the axis, `top` at the top. */
  readonly y: (value: number) => number;
  /** The axes and their labels (0 and `topLabel`, 0 s and the span), as SVG elements. */
  readonly axes: string[];
}

export function timeFrame(
  ats: readonly number[],
  { top, topLabel, width, height }: { top: number; topLabel: string; width: number; height: number },
): TimeFrame {
  const first = ats[0] ?? 0;
  const spanMs = Math.max(1000, (ats.at(-1) ?? first) - first);
  const x = (at: number) => PAD.left + ((at - first) / spanMs) * (width - PAD.left - PAD.right);
  const y = (value: number) => PAD.top + (1 - value / top) * (height - PAD.top - PAD.bottom);
  const bottom = height - PAD.bottom;
  const axes = [
    `<line x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${bottom}" stroke="#999999"/>`,
    `<line x1="${PAD.left}" x2="${width - PAD.right}" y1="${bottom}" y2="${bottom}" stroke="#999999"/>`,
    `<text x="${PAD.left - 6}" y="${n(y(top) + 4)}" text-anchor="end" fill="#555555">${topLabel}</text>`,
    `<text x="${PAD.left - 6}" y="${n(y(0) + 4)}" text-anchor="end" fill="#555555">0</text>`,
    `<text x="${PAD.left}" y="${height - 8}" fill="#555555">0 s</text>`,
    `<text x="${width - PAD.right}" y="${height - 8}" text-anchor="end" fill="#555555">${(spanMs / 1000).toFixed(1)} s</text>`,
  ];
  return { x, y, axes };
}
