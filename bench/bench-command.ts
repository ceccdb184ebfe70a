import { ensureStack } from '../tools/stack/stack';
import type { BenchOptions } from './options';
import { renderLessons, renderTable } from './report/render-text';
import { writeReport } from './report/write-report';
import { runBench } from './runner';
import { targetOf } from './target';
import type { BenchReport, StrategyResult } from './types';

/** Every result whose verdict is not the one scenarios.ts expects: the run then fails. */
export function unexpectedVerdicts(report: BenchReport): StrategyResult[] {
  return report.loads.flatMap((l) => l.results.filter((r) => !r.verdict.asExpected));
}

/** `npm run bench` on the running stack, or one it starts (and stops unless `keepStack`): tables, reports, lessons. */
export async function benchCommand({ settings, outDir, keepStack }: BenchOptions) {
  const stack = await ensureStack();
  if (stack.started) console.log(`started a stack at ${stack.info.nginxUrl}${keepStack ? ', kept running' : ''}`);
  // Ctrl-C mid-run must not leave a stack this run started behind.
  const interrupted = () => void stack.stop().finally(() => process.exit(130));
  if (stack.started && !keepStack) process.once('SIGINT', interrupted);
  try {
    const report = await runBench(targetOf(stack.info), settings);
    console.log(`\n${renderTable(report, process.stdout.isTTY)}\n`);
    const files = writeReport(report, outDir);
    console.log(`report: ${files.html}\n        ${files.json}\n`);
    console.log(renderLessons(report));
    return { asExpected: unexpectedVerdicts(report).length === 0 };
  } finally {
    process.removeListener('SIGINT', interrupted);
    if (!keepStack) await stack.stop();
  }
}
