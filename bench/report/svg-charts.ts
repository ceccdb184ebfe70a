/** Inline SVG bar charts: no script, no external file, so the report stays one self-contained page. */

export interface BarSeries {
  readonly name: string;
  readonly color: string;
}

export interface BarRow {
  readonly label: string;
  /** One value per series. */
  readonly values: readonly number[];
  /** Overrides the series colours for this row (e.g. red for a wrong strategy). */
  readonly colors?: readonly string[];
  /** Shown after the bars, e.g. a verdict. */
  readonly note?: string;
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const labelWidth = 140;
const plotWidth = 460;
const tailWidth = 330;
const barHeight = 13;
const barGap = 2;
const groupGap = 10;
const top = 34;

const formatValue = (v: number) => (v >= 100 || Number.isInteger(v) ? v.toFixed(0) : v.toFixed(1));

/** A horizontal grouped bar chart, one group per row, one bar per series. */
export function barChart(title: string, unit: string, series: readonly BarSeries[], rows: readonly BarRow[]): string {
  const max = Math.max(0, ...rows.flatMap((r) => r.values.filter(Number.isFinite)));
  const scale = max > 0 ? plotWidth / max : 0;
  const groupHeight = series.length * (barHeight + barGap) + groupGap;
  const legendY = top + rows.length * groupHeight + 8;
  const width = labelWidth + plotWidth + tailWidth;
  const height = legendY + 22;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}" font-family="system-ui, sans-serif" font-size="12">`,
    `<text x="0" y="18" font-size="15" font-weight="600">${escapeXml(title)} (${escapeXml(unit)})</text>`,
  ];
  rows.forEach((row, r) => {
    const y0 = top + r * groupHeight;
    const labelY = y0 + (series.length * (barHeight + barGap)) / 2 + 4;
    parts.push(`<text x="${labelWidth - 8}" y="${labelY}" text-anchor="end">${escapeXml(row.label)}</text>`);
    let tailX = labelWidth;
    series.forEach((s, i) => {
      const value = Number.isFinite(row.values[i]) ? row.values[i] : 0;
      const w = Math.max(value > 0 ? 1 : 0, value * scale);
      const y = y0 + i * (barHeight + barGap);
      const color = row.colors?.[i] ?? s.color;
      parts.push(
        `<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${color}"><title>${escapeXml(`${row.label} ${s.name}: ${formatValue(value)} ${unit}`)}</title></rect>`,
      );
      parts.push(
        `<text x="${(labelWidth + w + 4).toFixed(1)}" y="${y + barHeight - 2}" fill="#333">${formatValue(value)}</text>`,
      );
      tailX = Math.max(tailX, labelWidth + w + 4);
    });
    if (row.note)
      parts.push(
        `<text x="${(tailX + 50).toFixed(1)}" y="${labelY}" fill="${row.colors?.[0] ?? '#333'}" font-weight="600">${escapeXml(row.note)}</text>`,
      );
  });
  if (series.length > 1) {
    series.forEach((s, i) => {
      const x = labelWidth + i * 110;
      parts.push(
        `<rect x="${x}" y="${legendY}" width="12" height="12" fill="${s.color}"/><text x="${x + 16}" y="${legendY + 10}">${escapeXml(s.name)}</text>`,
      );
    });
  }
  parts.push('</svg>');
  return parts.join('\n');
}
