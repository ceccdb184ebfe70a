import { ceilingsLine } from './columns';

describe('ceilingsLine', () => {
  it('names each ceiling with its rate', () => {
    expect(ceilingsLine({ httpPerSec: 4000, pgHotRowPerSec: 1000, redisPerSec: 12000 })).toBe(
      'ceilings: http 4000/s, pg hot row 1000/s, redis 12000/s',
    );
  });
});
