/** Number formats shared by the table, the Markdown and the HTML report. */
export function fixed(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '–';
}

export function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/** 2026-11-22T04:30:05.123Z → 2026-11-22T04-30-05Z, safe in file names. */
export function fileStamp(iso: string): string {
  return iso.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
}
