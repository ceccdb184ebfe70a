/** Inline SVG charts: no script, no external file, so a report stays one self-contained page. */

export interface BarSeries {
  readonly name: string;
  readonly color: string;
}

export interface BarRow {
  readonly label: string;
  readonly values: readonly number[];
  /** Instead of the series' colours, e.g. red for a wrong strategy. */
  readonly colors?: readonly string[];
  /** Shown after the bars, e.g. a verdict. */
  readonly note?: string;
}

/** [x, y] points, x in the chart's own unit. */
export type LineSeries = BarSeries & { readonly points: ReadonlyArray<readonly [number, number]> };

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const BAR = { label: 140, plot: 460, tail: 330, height: 13, gap: 2, groupGap: 10, top: 34 };
const formatValue = (v: number) => (v >= 100 || Number.isInteger(v) ? v.toFixed(0) : v.toFixed(1));

/** A horizontal grouped bar chart, one group per row, one bar per series. */
export function barChart(title: string, unit: string, series: readonly BarSeries[], rows: readonly BarRow[]): string {
  const max = Math.max(0, ...rows.flatMap((r) => r.values.filter(Number.isFinite)));
  const scale = max > 0 ? BAR.plot / max : 0;
  const groupHeight = series.length * (BAR.height + BAR.gap) + BAR.groupGap;
  const legendY = BAR.top + rows.length * groupHeight + 8;
  const [width, height] = [BAR.label + BAR.plot + BAR.tail, legendY + 22];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}" font-family="system-ui, sans-serif" font-size="12">`,
    `<text x="0" y="18" font-size="15" font-weight="600">${escapeXml(title)} (${escapeXml(unit)})</text>`,
  ];
  rows.forEach((row, r) => {
    const y0 = BAR.top + r * groupHeight;
    const labelY = y0 + (series.length * (BAR.height + BAR.gap)) / 2 + 4;
    parts.push(`<text x="${BAR.label - 8}" y="${labelY}" text-anchor="end">${escapeXml(row.label)}</text>`);
    let tailX = BAR.label;
    series.forEach((s, i) => {
      const value = Number.isFinite(row.values[i]) ? row.values[i] : 0;
      const w = Math.max(value > 0 ? 1 : 0, value * scale);
      const y = y0 + i * (BAR.height + BAR.gap);
      parts.push(
        `<rect x="${BAR.label}" y="${y}" width="${w.toFixed(1)}" height="${BAR.height}" fill="${row.colors?.[i] ?? s.color}"><title>${escapeXml(`${row.label} ${s.name}: ${formatValue(value)} ${unit}`)}</title></rect>`,
        `<text x="${(BAR.label + w + 4).toFixed(1)}" y="${y + BAR.height - 2}" fill="#333">${formatValue(value)}</text>`,
      );
      tailX = Math.max(tailX, BAR.label + w + 4);
    });
    if (row.note)
      parts.push(
        `<text x="${(tailX + 50).toFixed(1)}" y="${labelY}" fill="${row.colors?.[0] ?? '#333'}" font-weight="600">${escapeXml(row.note)}</text>`,
      );
  });
  if (series.length > 1)
    parts.push(
      ...series.map(
        (s, i) =>
          `<rect x="${BAR.label + i * 110}" y="${legendY}" width="12" height="12" fill="${s.color}"/><text x="${BAR.label + i * 110 + 16}" y="${legendY + 10}">${escapeXml(s.name)}</text>`,
      ),
    );
  return [...parts, '</svg>'].join('\n');
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
