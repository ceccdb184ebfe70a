/** The one table renderer, for the terminal and for Markdown: a header, an alignment and rows of cells. */
export interface Grid {
  readonly header: readonly string[];
  readonly align: readonly ('left' | 'right')[];
  readonly rows: readonly (readonly string[])[];
  /** A cell to make stand out (red in a terminal, bold in Markdown). */
  readonly alarming?: (row: number, column: number) => boolean;
}

const red = (text: string) => `\x1b[31m${text}\x1b[0m`;

/** Columns padded to their widest cell, two spaces apart, under a dashed rule; alarming cells red when `color`. */
export function textGrid(grid: Grid, color = false): string[] {
  const widths = grid.header.map((h, i) => Math.max(h.length, ...grid.rows.map((row) => row[i].length)));
  const pad = (text: string, i: number) =>
    grid.align[i] === 'left' ? text.padEnd(widths[i]) : text.padStart(widths[i]);
  const line = (cells: readonly string[], row = -1) =>
    cells
      .map((c, i) => (color && row >= 0 && grid.alarming?.(row, i) ? red(pad(c, i)) : pad(c, i)))
      .join('  ')
      .trimEnd();
  return [line(grid.header), line(widths.map((w) => '-'.repeat(w))), ...grid.rows.map((r, row) => line(r, row))];
}

/** A Markdown table, `|` in cells escaped, alarming cells bold. */
export function markdownGrid(grid: Grid): string[] {
  const cell = (text: string, row: number, i: number) => {
    const escaped = text.replace(/\|/g, '\\|');
    return grid.alarming?.(row, i) ? `**${escaped}**` : escaped;
  };
  return [
    `| ${grid.header.join(' | ')} |`,
    `|${grid.align.map((a) => (a === 'right' ? '---:' : ':---')).join('|')}|`,
    ...grid.rows.map((r, row) => `| ${r.map((c, i) => cell(c, row, i)).join(' | ')} |`),
  ];
}
