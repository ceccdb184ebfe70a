/** Text formats of the tables, the reports and the lessons' sentences. */
export const fixed = (value: number, digits = 0): string => (Number.isFinite(value) ? value.toFixed(digits) : '–');

/** For sentences: 1631 → '1,631'. */
export const num = (x: number, digits = 0): string =>
  x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Milliseconds, '–' when there were none. */
export const ms = (value: number | undefined): string =>
  value === undefined ? '–' : value.toFixed(value >= 100 ? 0 : 1);

/** 2026-11-22T04:30:05.123Z → 2026-11-22T04-30-05Z, safe in file names. */
export const fileStamp = (iso: string): string => iso.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');

/** Greedy word wrap for a terminal, each line indented. */
export function wrap(text: string, width: number, indent = ''): string {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    const fits = last !== undefined && indent.length + last.length + 1 + word.length <= width;
    if (fits) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => indent + line).join('\n');
}

/** For HTML and SVG text and attributes. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
