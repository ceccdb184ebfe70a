import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { jsonReport } from './report/json';
import { renderMarkdown } from './report/markdown';
import type { StepResult } from './step';
import { renderTimelineSvg } from './timeline/timeline-svg';

/** The SVG file name of a step's timeline, beside the Markdown file `markdownFile`. */
export function svgName(markdownFile: string, step: string): string {
  return `${basename(markdownFile, extname(markdownFile))}-${step}.svg`;
}

/** Writes the Markdown report and, beside it, one SVG per step that has a timeline. */
export function writeMarkdown(file: string, results: readonly StepResult[], runLine: string): string[] {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const r of results) {
    if (!r.timeline) continue;
    const svg = join(dir, svgName(file, r.name));
    writeFileSync(svg, renderTimelineSvg(r.timeline));
    written.push(svg);
  }
  writeFileSync(file, renderMarkdown(results, { runLine, timelinePath: (r) => svgName(file, r.name) }));
  return [file, ...written];
}

export function writeJson(
  file: string,
  results: readonly StepResult[],
  meta: { startedAt: Date; finishedAt: Date; nginxUrl: string },
  markdownFile?: string,
): void {
  mkdirSync(dirname(file), { recursive: true });
  const svgOf = markdownFile
    ? (r: StepResult) => join(dirname(markdownFile), svgName(markdownFile, r.name))
    : undefined;
  writeFileSync(file, `${JSON.stringify(jsonReport(results, meta, svgOf), null, 2)}\n`);
}
