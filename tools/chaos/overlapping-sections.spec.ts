import { overlappingSections } from './overlapping-sections';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
const section = (from: number, to: number, segment = 0) => ({ segment, enteredAt: at(from), leftAt: at(to) });

describe('overlappingSections', () => {
  it('counts each pair of sections on one row that were open at once', () => {
    expect(overlappingSections([section(0, 10), section(10, 20), section(20, 30)])).toBe(0); // back to back
    expect(overlappingSections([section(0, 10), section(5, 15)])).toBe(1);
    // One long section open over three short ones in a row: three pairs.
    expect(overlappingSections([section(0, 100), section(10, 20), section(30, 40), section(50, 60)])).toBe(3);
  });

  it('never pairs sections of different segments: each has its own stock row', () => {
    expect(overlappingSections([section(0, 10, 0), section(5, 15, 1)])).toBe(0);
    expect(overlappingSections([section(0, 10, 1), section(5, 15, 1), section(6, 8, 0)])).toBe(1);
  });
});
