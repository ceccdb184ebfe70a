import { parseArgs } from 'node:util';
import type { BenchSettings } from './types';

export interface BenchOptions {
  readonly settings: BenchSettings;
  /** Where the JSON, Markdown and HTML reports go. */
  readonly outDir: string;
}

export const defaultOutDir = 'bench/results';

/** The full run: two loads (how fast each design can go, and with work inside), every strategy. */
const full = { stock: 1000, requests: 2000, warmup: 200, connections: 50, loads: '0,5', segments: 8, probe: 300 };
/** --quick: the same shape, small enough for the test suite. */
const quick = { stock: 80, requests: 160, warmup: 16, connections: 16, loads: '0,2', segments: 8, probe: 300 };

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

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      strategies: { type: 'string' },
      stock: { type: 'string' },
      requests: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'work-ms': { type: 'string' },
      'probe-work-ms': { type: 'string' },
      segments: { type: 'string' },
      quick: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
    strict: true,
  });
  const base = values.quick ? quick : full;
  const requests = int('requests', values.requests, base.requests, 1, 1_000_000);
  const settings: BenchSettings = {
    strategies: (values.strategies ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    stock: int('stock', values.stock, base.stock, 0, 10_000_000),
    requests,
    warmupRequests: int('warmup', values.warmup, Math.min(base.warmup, requests), 0, 1_000_000),
    connections: int('connections', values.connections, Math.min(base.connections, requests), 1, 10_000),
    loads: loads(values['work-ms'] ?? base.loads),
    probeWorkMs: int('probe-work-ms', values['probe-work-ms'], base.probe, 0, 5000),
    segments: int('segments', values.segments, base.segments, 1, 64),
    quick: values.quick ?? false,
  };
  return { settings, outDir: values.out ?? defaultOutDir };
}
