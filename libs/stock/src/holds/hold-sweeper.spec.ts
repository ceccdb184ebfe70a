import { HoldSweeper } from './hold-sweeper';

describe('HoldSweeper', () => {
  it('runs batches until one is not full, then the naive path', async () => {
    const batches = [200, 200, 3];
    const calls: string[] = [];
    const sweeper = new HoldSweeper(
      {
        expireDue: (batch) => {
          calls.push(`due ${batch}`);
          return Promise.resolve(batches.shift() ?? 0);
        },
        expireNaive: () => {
          calls.push('naive');
          return Promise.resolve(0);
        },
      },
      1000,
    );
    await sweeper.sweep();
    expect(calls).toEqual(['due 200', 'due 200', 'due 200', 'naive']);
  });

  it('reports a failed sweep and sweeps again next period', async () => {
    jest.useFakeTimers();
    try {
      const errors: unknown[] = [];
      let sweeps = 0;
      const sweeper = new HoldSweeper(
        {
          expireDue: () => {
            sweeps++;
            return Promise.reject(new Error('PostgreSQL away'));
          },
          expireNaive: () => Promise.resolve(0),
        },
        200,
        (error) => errors.push(error),
      );
      sweeper.start();
      await jest.advanceTimersByTimeAsync(650);
      await sweeper.stop();
      expect(sweeps).toBe(3);
      expect(errors).toHaveLength(3);
      await jest.advanceTimersByTimeAsync(1000);
      expect(sweeps).toBe(3); // stopped
    } finally {
      jest.useRealTimers();
    }
  });
});
