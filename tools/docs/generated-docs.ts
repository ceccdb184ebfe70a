import type { BenchReport } from '../../bench/types';
import { renderReliabilitySection } from '../chaos/reliability-section';
import { renderFailoverSection, type FailoverRuns } from '../chaos/failover-section';
import type { ChaosReport } from '../chaos/scenario';
import { renderLabSection, type LabPageTiming } from '../lab/page-timing';
import { soakVerdict } from '../soak/soak-report';
import type { SoakReport } from '../soak/soak-run';
import {
  renderBenchSection,
  renderLessonsSection,
  renderLocksSection,
  renderResultsSection,
  type LocksBaseline,
} from './bench-sections';
import { fillSection } from './doc-sections';

/** The saved runs the docs quote (bench/baselines/*.json). */
export interface Baselines {
  readonly bench?: BenchReport;
  readonly locks?: LocksBaseline;
  readonly chaos?: ChaosReport;
  readonly lab?: LabPageTiming;
  readonly soak?: SoakReport;
  readonly failover?: FailoverRuns;
}

type Section = (b: Baselines) => string | undefined;

/** Each generated document, and its sections: a section whose run is missing is left as it is. */
export const GENERATED: Readonly<Record<string, Readonly<Record<string, Section>>>> = {
  'README.md': {
    results: (b) => b.bench && renderResultsSection(b.bench),
    lessons: (b) => b.bench && renderLessonsSection(b.bench, b.locks),
  },
  'docs/bench.md': {
    bench: (b) => b.bench && renderBenchSection(b.bench),
    locks: (b) => b.locks && renderLocksSection(b.locks),
    lab: (b) => b.lab && renderLabSection(b.lab),
  },
  'docs/reliability.md': {
    reliability: (b) => b.chaos && renderReliabilitySection(b.chaos.results, b.chaos.startedAt.slice(0, 10)),
    failover: (b) => b.failover && renderFailoverSection(b.failover),
    soak: (b) => b.soak && renderSoakSection(b.soak),
  },
};

/** The document with its generated sections written from the baselines. */
export function renderGenerated(file: string, doc: string, baselines: Baselines): string {
  let out = doc;
  for (const [name, render] of Object.entries(GENERATED[file] ?? {})) {
    const body = render(baselines);
    if (body !== undefined) out = fillSection(out, name, body);
  }
  return out;
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
