import { baselineJson } from './baseline-json';

describe('baselineJson', () => {
  const run = {
    at: '2026-11-28',
    rows: [
      { a: 1, b: 'x' },
      { a: 2, b: null },
    ],
    nested: { list: [1, 2], deep: { c: true } },
  };

  it('reads back as the run, each plain object on one line', () => {
    const text = baselineJson('bench', run);
    expect(JSON.parse(text)).toEqual(run);
    expect(text.split('\n')).toContain('    {"a":1,"b":"x"},');
  });

  it("rounds the soak's samples and leaves its other figures as they were", () => {
    const soak = {
      phases: [{ measuredPerSec: 99.049128 }],
      samples: [{ atMs: 1.0853, replica: 'api-1', rssMb: 171.0117, heapMb: 81.2225, lagP99Ms: 97.6486 }],
    };
    const back = JSON.parse(baselineJson('soak', soak)) as typeof soak;
    expect(back.samples).toEqual([{ atMs: 1, replica: 'api-1', rssMb: 171.01, heapMb: 81.22, lagP99Ms: 97.65 }]);
    expect(back.phases).toEqual(soak.phases);
  });
});
