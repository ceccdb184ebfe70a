import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LockBenchReport } from '../bench/locks/render';
import { renderPerformanceSection } from '../bench/report/performance-section';
import type { BenchReport } from '../bench/types';
import { renderReliabilitySection } from './chaos/reliability-section';
import type { ScenarioResult } from './chaos/scenario';
import { fillSection } from './docs/doc-sections';

// npm run readme -- [--bench bench/results/<run>.json [--locks bench/results/locks-<run>.json]] [--chaos <chaos>.json]
// Writes the README's generated sections from saved runs, so its figures are always a real run's.
const USAGE = 'usage: npm run readme -- [--bench FILE [--locks FILE]] [--chaos FILE]';
const README = join(resolve(__dirname, '..'), 'README.md');

function flags(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (!['--bench', '--locks', '--chaos'].includes(flag) || !value) throw new Error(USAGE);
    out[flag.slice(2)] = value;
  }
  if (Object.keys(out).length === 0 || (out.locks && !out.bench)) throw new Error(USAGE);
  return out;
}

const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

try {
  const files = flags(process.argv.slice(2));
  let doc = readFileSync(README, 'utf8');
  if (files.bench) {
    doc = fillSection(
      doc,
      'performance',
      renderPerformanceSection(
        read<BenchReport>(files.bench),
        files.locks ? read<LockBenchReport>(files.locks) : undefined,
      ),
    );
  }
  if (files.chaos) {
    const ranOn = statSync(files.chaos).mtime.toISOString().slice(0, 10);
    doc = fillSection(doc, 'reliability', renderReliabilitySection(read<ScenarioResult[]>(files.chaos), ranOn));
  }
  writeFileSync(README, doc);
  console.log(
    `${README}: ${Object.keys(files)
      .filter((k) => k !== 'locks')
      .map((k) => (k === 'bench' ? 'performance' : 'reliability'))
      .join(' and ')} refreshed`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
}
