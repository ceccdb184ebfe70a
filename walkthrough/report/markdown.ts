import type { StepResult } from '../step';
import { figureLabel, formatFigure } from './format';

export interface MarkdownOptions {
  /** Where the timeline of a step is, relative to the Markdown file (undefined: no image). */
  readonly timelinePath?: (result: StepResult) => string | undefined;
  /** Level of each step's heading (2 = "##"); the report's own title is one above. */
  readonly headingLevel?: number;
  /** A line under the title, e.g. when and against which stack the run was made. */
  readonly runLine?: string;
  /** Leave the title out (the report is embedded in a larger document). */
  readonly embedded?: boolean;
  /** Print each step's explanation (default); a document that tells the story already can skip it. */
  readonly explain?: boolean;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const icon = (result: StepResult) => ({ passed: '✅', failed: '❌', skipped: '⏭️', error: '💥' })[result.status];

export function summaryLine(results: readonly StepResult[]): string {
  const by = (status: StepResult['status']) => results.filter((r) => r.status === status).length;
  const parts = [`${by('passed')} as expected`];
  if (by('failed')) parts.push(`${by('failed')} not as expected`);
  if (by('error')) parts.push(`${by('error')} errored`);
  if (by('skipped')) parts.push(`${by('skipped')} skipped`);
  return `${results.length} step${results.length === 1 ? '' : 's'}: ${parts.join(', ')}.`;
}

/** The run as Markdown: an overview table, then each step's story, figures, checks and timeline. */
export function renderMarkdown(results: readonly StepResult[], options: MarkdownOptions = {}): string {
  const level = options.headingLevel ?? 2;
  const h = (n: number) => '#'.repeat(n);
  const out: string[] = [];
  if (!options.embedded) out.push(`${h(level - 1)} Walkthrough results`, '');
  if (options.runLine) out.push(options.runLine, '');
  out.push(summaryLine(results), '');
  out.push('| # | step | verdict | what happened |', '|---|---|---|---|');
  results.forEach((r, i) =>
    out.push(`| ${i + 1} | \`${r.name}\` | ${icon(r)} ${cell(r.verdict)} | ${cell(r.summary || r.reason || '')} |`),
  );
  out.push('');
  results.forEach((r, i) => {
    out.push(`${h(level)} ${i + 1}. \`${r.name}\`: ${r.title}`, '');
    if (options.explain !== false) out.push(r.explain, '');
    out.push(`**Expected:** ${r.expected}`, '');
    if (r.status === 'skipped' || r.status === 'error') {
      out.push(`**Verdict:** ${icon(r)} ${r.verdict}`, '');
      return;
    }
    out.push('| observed | value |', '|---|---|');
    for (const [name, value] of Object.entries(r.observed))
      out.push(`| ${figureLabel(name)} | ${cell(formatFigure(value))} |`);
    out.push('');
    out.push('| check | expected | observed | |', '|---|---|---|---|');
    for (const c of r.checks)
      out.push(
        `| ${cell(c.what)} | ${cell(c.expected)} | ${cell(formatFigure(c.observed))} | ${c.pass ? '✅' : '❌'} |`,
      );
    out.push('');
    out.push(`**Verdict:** ${icon(r)} ${r.verdict}. ${r.summary}`, '');
    const image = r.timeline ? options.timelinePath?.(r) : undefined;
    if (image) out.push(`![timeline of ${r.name}](${image})`, '');
  });
  return `${out.join('\n').trimEnd()}\n`;
}
