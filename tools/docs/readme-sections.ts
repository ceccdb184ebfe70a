import type { LockBenchReport } from '../../bench/locks/render';
import { renderPerformanceSection } from '../../bench/report/performance-section';
import type { BenchReport } from '../../bench/types';
import { renderReliabilitySection } from '../chaos/reliability-section';
import { renderFailoverSection, type FailoverRuns } from '../chaos/failover-section';
import type { ChaosReport } from '../chaos/scenario';
import { renderLabSection, type LabPageTiming } from '../lab/page-timing';
import { soakVerdict } from '../soak/soak-report';
import type { SoakReport } from '../soak/soak-run';
import { fillSection } from './doc-sections';

/** The saved runs the README quotes (bench/baselines/*.json). */
export interface Baselines {
  readonly bench?: BenchReport;
  readonly locks?: LockBenchReport;
  readonly chaos?: ChaosReport;
  readonly lab?: LabPageTiming;
  readonly soak?: SoakReport;
  readonly failover?: FailoverRuns;
}

/** The README with its generated sections written from the baselines (a section without a run is left as is). */
export function renderReadmeSections(readme: string, baselines: Baselines): string {
  let doc = readme;
  if (baselines.bench)
    doc = fillSection(doc, 'performance', renderPerformanceSection(baselines.bench, baselines.locks));
  if (baselines.chaos) {
    const { startedAt, results } = baselines.chaos;
    doc = fillSection(doc, 'reliability', renderReliabilitySection(results, startedAt.slice(0, 10)));
  }
  if (baselines.lab) doc = fillSection(doc, 'lab', renderLabSection(baselines.lab));
  if (baselines.failover) doc = fillSection(doc, 'failover', renderFailoverSection(baselines.failover));
  if (baselines.soak) doc = fillSection(doc, 'soak', renderSoakSection(baselines.soak));
  return doc;
}

function renderSoakSection(report: SoakReport): string {
  const o = report.options;
  return [
    `\`npm run soak -- --minutes ${o.minutes}\` on ${report.startedAt.slice(0, 10)}: ${report.phases.map((p) => `${p.strategy} at ${p.loadPerSec.toFixed(0)}/s (half of ${p.measuredPerSec.toFixed(0)}/s measured in the same run)`).join(', ')}, in turn; a fault every ${o.faultEveryMs / 1000} s (replica kill, Redis restart, PostgreSQL restart); each replica's memory and event-loop lag sampled every ${o.sampleEveryMs / 1000} s, judged after a ${o.warmupMs / 1000} s warm-up.`,
    '',
    ...soakVerdict(report).lines.map((line) => `- ${line}`),
    '',
  ].join('\n');
}
