import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchReport } from '../types';
import { fileStamp } from '../../tools/report/format';
import { renderHtml } from './render-html';

export type ReportFiles = ReturnType<typeof writeReport>;

export function writeReport(report: BenchReport, outDir: string) {
  mkdirSync(outDir, { recursive: true });
  const base = join(outDir, fileStamp(report.startedAt));
  const files = { json: `${base}.json`, html: `${base}.html` };
  writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(files.html, renderHtml(report));
  return files;
}
