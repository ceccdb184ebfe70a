/** A line chart over time, inline SVG: no script, no external file, so a report stays one self-contained page. */
import { escapeXml } from './format';

/** [x, y] points, x in the chart's own unit. */
export interface LineSeries {
  readonly name: string;
  readonly color: string;
  readonly points: ReadonlyArray<readonly [number, number]>;
}

const W = 900;
const H = 260;
const PAD = { left: 56, right: 16, top: 28, bottom: 30 };

/** Lines over time, with vertical markers (a fault) labelled at the top. */
export function lineChart(
  title: string,
  unit: string,
  series: readonly LineSeries[],
  markers: readonly { readonly x: number; readonly label: string }[],
): string {
  const xs = series.flatMap((s) => s.points.map(([x]) => x)).concat(markers.map((m) => m.x));
  const ys = series.flatMap((s) => s.points.map(([, y]) => y));
  const [x0, x1] = [Math.min(0, ...xs), Math.max(1, ...xs)];
  const y1 = Math.max(1, ...ys) * 1.1;
  const px = (x: number) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - (y / y1) * (H - PAD.top - PAD.bottom);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H + 20 * series.length}" role="img" aria-label="${escapeXml(title)}" font-family="system-ui, sans-serif" font-size="11">`,
    `<text x="0" y="16" font-size="14" font-weight="600">${escapeXml(title)} (${escapeXml(unit)})</text>`,
    `<line x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}" stroke="#999"/>`,
    `<text x="${PAD.left - 6}" y="${py(y1 / 1.1) + 4}" text-anchor="end">${(y1 / 1.1).toFixed(0)}</text>`,
    `<text x="${PAD.left - 6}" y="${H - PAD.bottom + 4}" text-anchor="end">0</text>`,
    `<text x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${x1.toFixed(0)} s</text>`,
    ...markers.map(
      (m) =>
        `<line x1="${px(m.x).toFixed(1)}" y1="${PAD.top}" x2="${px(m.x).toFixed(1)}" y2="${H - PAD.bottom}" stroke="#c62828" stroke-dasharray="4 3"/>` +
        `<text x="${(px(m.x) + 3).toFixed(1)}" y="${PAD.top + 10}" fill="#c62828">${escapeXml(m.label)}</text>`,
    ),
    ...series.map(
      (s) =>
        `<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${s.points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`,
    ),
    ...series.map(
      (s, i) =>
        `<rect x="${PAD.left}" y="${H + 6 + i * 20}" width="12" height="12" fill="${s.color}"/><text x="${PAD.left + 18}" y="${H + 16 + i * 20}">${escapeXml(s.name)}</text>`,
    ),
    '</svg>',
  ].join('\n');
}
