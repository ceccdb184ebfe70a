import { isoToMs } from './iso-time';

describe('isoToMs', () => {
  it('keeps microseconds', () => {
    expect(isoToMs('2026-11-22T04:00:00.123456Z') - Date.parse('2026-11-22T04:00:00Z')).toBeCloseTo(123.456, 3);
  });

  it('reads millisecond and whole-second stamps and offsets', () => {
    expect(isoToMs('2026-11-22T04:00:00.5Z')).toBe(Date.parse('2026-11-22T04:00:00.500Z'));
    expect(isoToMs('2026-11-22T04:00:01Z')).toBe(Date.parse('2026-11-22T04:00:01Z'));
    expect(isoToMs('2026-11-22T05:00:00.25+01:00')).toBe(Date.parse('2026-11-22T04:00:00.250Z'));
  });
});
