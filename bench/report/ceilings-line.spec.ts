import { ceilingsLine } from './columns';

describe('ceilingsLine', () => {
  const ceilings = { httpPerSec: 4000, pgHotRowPerSec: 1000, redisPerSec: 12000, method: '' };

  it('shows the bare node:http ceiling beside the HTTP one when the run measured it', () => {
    expect(ceilingsLine({ ...ceilings, bareHttpPerSec: 9000 })).toBe(
      'ceilings: http 4000/s (bare node:http 9000/s), pg hot row 1000/s, redis 12000/s',
    );
  });

  it('reads a run made before it existed', () => {
    expect(ceilingsLine(ceilings)).toBe('ceilings: http 4000/s, pg hot row 1000/s, redis 12000/s');
  });
});
