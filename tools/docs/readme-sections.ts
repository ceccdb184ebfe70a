import type { LockBenchReport } from '../../bench/locks/render';
import { renderPerformanceSection } from '../../bench/report/performance-section';
import type { BenchReport } from '../../bench/types';
import { renderReliabilitySection } from '../chaos/reliability-section';
import type { ChaosReport } from '../chaos/scenario';
import { fillSection } from './doc-sections';

/** The saved runs the README quotes (bench/baselines/*.json). */
export interface Baselines {
  readonly bench?: BenchReport;
  readonly locks?: LockBenchReport;
  readonly chaos?: ChaosReport;
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
  return doc;
}
