/**
 * An ISO 8601 UTC timestamp to epoch ms, keeping the microseconds the database gives
 * (Date.parse drops them, and critical sections last only a few ms).
 */
export function isoToMs(iso: string): number {
  const match = /^(.*T\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:?\d\d)$/.exec(iso);
  if (!match) return Date.parse(iso);
  const whole = Date.parse(`${match[1]}${match[3]}`);
  return whole + (match[2] ? Number(`0${match[2]}`) * 1000 : 0);
}
