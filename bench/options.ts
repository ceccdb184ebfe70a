import { parseArgs } from 'node:util';

export type BenchOptions = ReturnType<typeof parseBenchArgs>;
export type BenchSettings = BenchOptions['settings'];

export const defaultOutDir = 'bench/results';

/**
 * The same shape at three sizes: `full` (npm run bench), `demo` (npm run demo: every strategy and
 * both loads, fewer grabs per round) and `--quick` (the test suite's).
 */
export const presets = {
  full: { stock: 1000, requests: 2000, warmup: 200, connections: 50, loads: '0,5', segments: 8, sellOutRuns: 3 },
  demo: { stock: 200, requests: 400, warmup: 40, connections: 32, loads: '0,5', segments: 8, sellOutRuns: 1 },
  quick: { stock: 80, requests: 160, warmup: 16, connections: 16, loads: '0,2', segments: 8, sellOutRuns: 1 },
} as const;

export type PresetName = keyof typeof presets;

/**
 * Requests of a rate read against a ceiling: the ceilings' and the sold-out round's alike, so each
 * rate carries the same start-up cost (twice a round's: a second or so reads steadier than less).
 */
export const rateRequests = (settings: Pick<BenchSettings, 'requests'>): number => settings.requests * 2;

/** `--work-ms 0,5`: one load per value. */
function loads(raw: string): number[] {
  const values = raw.split(',').map((v) => int('work-ms', v.trim(), -1, 0, 5000));
  if (new Set(values).size !== values.length) throw new Error(`--work-ms needs distinct values, got ${raw}`);
  return values;
}

function int(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`--${name} must be an integer in ${min}…${max}, got ${raw}`);
  return value;
}

export function parseBenchArgs(argv: readonly string[], preset: PresetName = 'full') {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      strategies: { type: 'string' },
      stock: { type: 'string' },
      requests: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'work-ms': { type: 'string' },
      segments: { type: 'string' },
      'sell-out-runs': { type: 'string' },
      quick: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
    strict: true,
  });
  const base = presets[values.quick ? 'quick' : preset];
  const requests = int('requests', values.requests, base.requests, 1, 1_000_000);
  const settings = {
    strategies: (values.strategies ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    stock: int('stock', values.stock, base.stock, 0, 10_000_000),
    requests,
    warmupRequests: int('warmup', values.warmup, Math.min(base.warmup, requests), 0, 1_000_000),
    connections: int('connections', values.connections, Math.min(base.connections, requests), 1, 10_000),
    loads: loads(values['work-ms'] ?? base.loads),
    segments: int('segments', values.segments, base.segments, 1, 64),
    sellOutRuns: int('sell-out-runs', values['sell-out-runs'], base.sellOutRuns, 0, 100),
  };
  return { settings, outDir: values.out ?? defaultOutDir };
}

/** How the figures were taken, in one paragraph that heads every report. */
export function methodText(settings: BenchSettings, replicas: number): string {
  return [
    `For each load (workMs ${settings.loads.join(' and ')}), per strategy: a warm-up round of ${settings.warmupRequests}`,
    `grabs on a coupon of its own, then a measured round of exactly ${settings.requests} grabs on a fresh coupon with`,
    `stock ${settings.stock} (segmented: ${settings.segments} segments), over ${settings.connections} connections`,
    `through nginx to ${replicas} replicas (autocannon, fixed amount), one distinct userId per request; once the`,
    `coupon sold out, ${rateRequests(settings)} grabs on it, as many as the ceilings send (sold-out answers). Every grab that gets past the sold-out check`,
    'spends workMs where its design puts it. grabs/s counts 200s up to the last one, shown as a share of the lowest',
    'ceiling its grabs pass through, measured after the loads. Oversold, lost updates, holders and the sections',
    'come from the database.',
  ].join(' ');
}
