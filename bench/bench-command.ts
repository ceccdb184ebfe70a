import { ensureStack } from '../tools/stack/stack';
import type { BenchOptions } from './options';
import { renderLessons, renderTable } from './report/render-markdown';
import { writeReport } from './report/write-report';
import { runBench } from './runner';
import { targetOf } from './target';
import type { BenchReport, StrategyResult } from './types';

/** Every result whose verdict is not the one scenarios.ts expects: the run then fails. */
export function unexpectedVerdicts(report: BenchReport): StrategyResult[] {
  return report.loads.flatMap((l) => l.results.filter((r) => !r.verdict.asExpected));
}

/**
 * The whole `npm run bench`: use the running stack (or start one, and stop it afterwards unless
 * `keepStack`), run every selected strategy, print the tables, write the reports, end with the lessons.
 */
export async function benchCommand(
  options: BenchOptions,
  log: (line: string) => void = console.log,
  keepStack = false,
) {
  const stack = await ensureStack();
  if (stack.started) log(`started a stack at ${stack.info.nginxUrl}${keepStack ? ', kept running afterwards' : ''}`);
  // Ctrl-C mid-run must not leave a stack this run started behind.
  const interrupted = () => {
    void stack.stop().finally(() => process.exit(130));
  };
  if (stack.started && !keepStack) process.once('SIGINT', interrupted);
  try {
    const report = await runBench(targetOf(stack.info), options.settings);
    log('');
    log(renderTable(report, process.stdout.isTTY));
    const files = writeReport(report, options.outDir);
    const unexpected = unexpectedVerdicts(report);
    log('');
    for (const r of unexpected) {
      const expected = r.verdict.expected.join(' + ') || 'correct';
      log(`NOT as expected: ${r.strategy} at workMs ${r.workMs}: ${r.verdict.label}, expected ${expected}`);
    }
    log(`report: ${files.html}`);
    log(`        ${files.markdown}`);
    log(`        ${files.json}`);
    log('');
    log(renderLessons(report));
    return { report, files, asExpected: unexpected.length === 0 };
  } finally {
    process.removeListener('SIGINT', interrupted);
    if (!keepStack) await stack.stop();
  }
}
