import { DEFAULT_SCENARIO, parseChaosArgs } from './options';

describe('parseChaosArgs', () => {
  it('defaults to every fault and, left undefined, every correct strategy the API offers', () => {
    expect(parseChaosArgs([])).toEqual({
      faults: ['replica-kill', 'redis-restart', 'postgres-restart'],
      strategies: undefined,
      scenario: DEFAULT_SCENARIO,
      json: undefined,
      only: undefined,
    });
  });

  it('reads faults, strategies and figures', () => {
    const o = parseChaosArgs([
      '--faults',
      'redis-restart',
      '--strategies',
      'watchdog',
      '--requests',
      '90',
      '--down-ms',
      '0',
      '--json',
      'out.json',
      '--only',
      'holds',
    ]);
    expect(o.faults).toEqual(['redis-restart']);
    expect(o.strategies).toEqual(['watchdog']);
    expect(o.scenario).toMatchObject({ requests: 90, downMs: 0, concurrency: DEFAULT_SCENARIO.concurrency });
    expect(o.json).toBe('out.json');
    expect(o.only).toBe('holds');
  });

  it.each([
    [['--faults', 'disk-full']],
    [['--requests', '0']],
    [['--rate', 'fast']],
    [['--concurrency']],
    [['--verbose', '1']],
    [['--only', 'locks']],
  ])('refuses %j', (argv) => {
    expect(() => parseChaosArgs(argv)).toThrow();
  });
});
