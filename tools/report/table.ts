import { escapeXml } from './format';

/** A table for the one renderer: a header, an alignment and rows of cells. */
export interface Grid {
  readonly header: readonly string[];
  readonly align: readonly ('left' | 'right')[];
  readonly rows: readonly (readonly string[])[];
  /** A cell to make stand out: red in a coloured terminal, bold in Markdown, class `bad` in HTML. */
  readonly alarming?: (row: number, column: number) => boolean;
}

/** The one table renderer: for a terminal, padded columns under a dashed rule; for Markdown, cells between pipes. */
export function renderGrid(grid: Grid, as: 'text' | 'color' | 'markdown' = 'text'): string[] {
  const md = as === 'markdown';
  const widths = grid.header.map((h, i) => Math.max(h.length, ...grid.rows.map((row) => row[i].length)));
  const cell = (text: string, i: number, row: number) => {
    const alarming = row >= 0 && grid.alarming?.(row, i);
    if (md) return alarming ? `**${text.replace(/\|/g, '\\|')}**` : text.replace(/\|/g, '\\|');
    const padded = grid.align[i] === 'left' ? text.padEnd(widths[i]) : text.padStart(widths[i]);
    return alarming && as === 'color' ? `\x1b[31m${padded}\x1b[0m` : padded;
  };
  const line = (cells: readonly string[], row = -1) => {
    const shown = cells.map((c, i) => cell(c, i, row));
    return md ? `| ${shown.join(' | ')} |` : shown.join('  ').trimEnd();
  };
  const rule = md
    ? `|${grid.align.map((a) => (a === 'right' ? '---:' : ':---')).join('|')}|`
    : line(widths.map((w) => '-'.repeat(w)));
  return [line(grid.header), rule, ...grid.rows.map((r, row) => line(r, row))];
}

/** The same table as HTML, cells escaped. */
export function htmlTable(grid: Grid): string {
  const cell = (tag: string, text: string, i: number, row = -1) => {
    const bad = row >= 0 && grid.alarming?.(row, i) ? ' bad' : '';
    return `<${tag} class="${grid.align[i]}${bad}">${escapeXml(text)}</${tag}>`;
  };
  const head = grid.header.map((h, i) => cell('th', h, i)).join('');
  const rows = grid.rows.map((r, row) => `<tr>${r.map((text, i) => cell('td', text, i, row)).join('')}</tr>`);
  return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
}
