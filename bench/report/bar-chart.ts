/** The report's bar chart, inline SVG: no script, no external file, so a report stays one self-contained page. */
import { escapeXml } from '../../tools/report/format';

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
