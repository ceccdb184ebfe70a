import { parseArgs } from 'node:util';
import type { BenchSettings } from './types';

export interface BenchOptions {
  readonly settings: BenchSettings;
  /** Where the JSON, Markdown and HTML reports go. */
  readonly outDir: string;
}

export const defaultOutDir = 'bench/results';

/** The full run: long enough for steady figures, about a minute and a half for every strategy on 2 cores. */
const full = { stock: 500, requests: 1000, warmup: 100, connections: 50, workMs: 5, segments: 8 };
/** --quick: every strategy in well under a minute on 2 cores. */
const quick = { stock: 80, requests: 160, warmup: 16, connections: 16, workMs: 2, segments: 8 };

function int(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
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
    workMs: int('work-ms', values['work-ms'], base.workMs, 0, 5000),
    segments: int('segments', values.segments, base.segments, 1, 64),
    quick: values.quick ?? false,
  };
  return { settings, outDir: values.out ?? defaultOutDir };
}
