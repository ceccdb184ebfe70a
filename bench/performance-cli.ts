import { readFileSync } from 'node:fs';
import type { LockBenchReport } from './locks/render';
import { renderPerformanceSection } from './report/performance-section';
import type { BenchReport } from './types';

// npx tsx bench/performance-cli.ts <bench report .json> [<lock micro-bench .json>]
// Prints the README's performance section for those two runs.
const [benchFile, locksFile] = process.argv.slice(2);
if (!benchFile) {
  console.error('usage: tsx bench/performance-cli.ts <bench .json> [<locks .json>]');
  process.exit(2);
}
const bench = JSON.parse(readFileSync(benchFile, 'utf8')) as BenchReport;
const locks = locksFile ? (JSON.parse(readFileSync(locksFile, 'utf8')) as LockBenchReport) : undefined;
process.stdout.write(renderPerformanceSection(bench, locks));
