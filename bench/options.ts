import { parseArgs } from 'node:util';

export type BenchOptions = ReturnType<typeof parseBenchArgs>;
export type BenchSettings = BenchOptions['settings'];

/** The same run at three sizes: `npm run bench`, `npm run demo` and `--quick` (the test suite's). */
const presets = {
  full: { stock: 1000, requests: 2000, warmup: 200, connections: 50, segments: 8, 'sell-out-runs': 3, loads: '0,5' },
  demo: { stock: 200, requests: 400, warmup: 40, connections: 32, segments: 8, 'sell-out-runs': 1, loads: '0,5' },
  quick: { stock: 80, requests: 160, warmup: 16, connections: 16, segments: 8, 'sell-out-runs': 1, loads: '0,2' },
} as const;
type NumericOption = Exclude<keyof typeof presets.full, 'loads'>;

/** `--name`'s value as an integer in min…max, or a clear error. */
export function int(name: string, raw: string, min: number, max: number): number {
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`--${name} must be an integer in ${min}…${max}, got ${raw}`);
  return value;
}

export function parseBenchArgs(argv: readonly string[], preset: 'full' | 'demo' = 'full') {
  const text = { type: 'string' } as const;
  const { values } = parseArgs({
    args: [...argv],
    options: {
      strategies: text,
      stock: text,
      requests: text,
      warmup: text,
      connections: text,
      'work-ms': text,
      segments: text,
      'sell-out-runs': text,
      out: text,
      quick: { type: 'boolean', default: false },
      'keep-stack': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const base = presets[values.quick ? 'quick' : preset];
  const option = (name: NumericOption, min: number, max: number, fallback: number = base[name]) => {
    const raw = values[name];
    return raw === undefined ? fallback : int(name, raw, min, max);
  };
  const workMs = values['work-ms'] ?? base.loads;
  const loads = workMs.split(',').map((v) => int('work-ms', v.trim(), 0, 5000));
  if (new Set(loads).size !== loads.length) throw new Error(`--work-ms needs distinct values, got ${workMs}`);
  const requests = option('requests', 1, 1_000_000);
  const settings = {
    // The names between commas and spaces.
    strategies: [...(values.strategies?.match(/[^\s,]+/g) ?? [])],
    stock: option('stock', 0, 10_000_000),
    requests,
    // Never more warm-up grabs or connections than requests, unless asked for.
    warmupRequests: option('warmup', 0, 1_000_000, Math.min(base.warmup, requests)),
    connections: option('connections', 1, 10_000, Math.min(base.connections, requests)),
    loads,
    segments: option('segments', 1, 64),
    sellOutRuns: option('sell-out-runs', 0, 100),
  };
  return { settings, outDir: values.out ?? 'bench/results', keepStack: values['keep-stack'] };
}

/** How the figures were taken, in one paragraph that heads every report. */
export function methodText(s: BenchSettings, replicas: number): string {
  return [
    `Per load and strategy: a warm-up round, then ${s.requests} grabs on a fresh coupon (stock ${s.stock}) over`,
    `${s.connections} connections through nginx to ${replicas} replicas, one userId each, then as many on the sold-out`,
    'coupon. A grab past the sold-out check spends workMs where its design puts it; grabs/s counts 200s up to the last',
    'one. The ceilings, after the loads, each after a warm-up, as many operations with as many in flight: http, GET',
    "/strategies through nginx; pg hot row, db-atomic's statement on one row; redis, the stock-take script. Oversold,",
    'lost updates and holders come from the database.',
  ].join(' ');
}
