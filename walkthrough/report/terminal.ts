import type { Step, StepResult } from '../step';
import { wrap } from '../../tools/report/format';
import { figureLabel, formatFigure } from './format';
import { summaryLine } from './markdown';

const WIDTH = 100;

/** The narration before a step runs: what is about to happen, why, and what we expect. */
export function narrateStep(step: Step, index: number, total: number): string {
  return [
    '',
    `━━ ${index + 1}/${total}  ${step.name}: ${step.title}`,
    wrap(step.explain, WIDTH, '   '),
    wrap(`Expected: ${step.expected}`, WIDTH, '   '),
    '',
  ].join('\n');
}

/** What was observed, each check, and the verdict. */
export function narrateResult(result: StepResult): string {
  if (result.status === 'skipped') return `   ⏭  ${result.verdict}\n`;
  const out: string[] = [];
  const names = Object.keys(result.observed);
  const pad = Math.max(0, ...names.map((n) => figureLabel(n).length));
  if (names.length) out.push('   Observed:');
  for (const [name, value] of Object.entries(result.observed))
    out.push(`     ${figureLabel(name).padEnd(pad)}  ${formatFigure(value)}`);
  for (const c of result.checks)
    out.push(`   ${c.pass ? '✔' : '✘'} ${c.what}: ${formatFigure(c.observed)} (expected ${c.expected})`);
  out.push(`   Verdict: ${result.verdict} (${(result.durationMs / 1000).toFixed(1)} s)`);
  if (result.summary) out.push(wrap(result.summary, WIDTH, '   '));
  return `${out.join('\n')}\n`;
}

export function narrateSummary(results: readonly StepResult[]): string {
  const lines = ['', `━━ ${summaryLine(results)}`];
  for (const r of results) lines.push(`   ${r.status.padEnd(7)}  ${r.name.padEnd(16)} ${r.verdict}`);
  return `${lines.join('\n')}\n`;
}
