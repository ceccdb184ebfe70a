import { renderReliabilitySection } from './reliability-section';
import type { ChaosReport } from './scenario-types';

/** The failover runs the README quotes: one `npm run chaos` per Redis topology or WAIT setting. */
export interface FailoverRuns {
  readonly runs: readonly ChaosReport[];
}

function topology(run: ChaosReport): string {
  const mode = run.redis?.mode ?? 'single';
  const wait = run.redis?.waitReplicas ?? 0;
  return `Redis ${mode === 'sentinel' ? 'under Sentinel (primary, replica, three Sentinels)' : mode === 'cluster' ? 'Cluster (3 masters, 3 replicas)' : mode}, ${wait > 0 ? `LOCK_WAIT_REPLICAS=${wait} (a lock is had only once ${wait} replica(s) have it)` : 'no WAIT'}`;
}

/** Two holders per lease-lock run, as one line: where a failover made them the expected failure, counted. */
function doubleHolders(run: ChaosReport): string {
  const counted = run.results.filter((r) => r.doubleHoldersExpected);
  if (counted.length === 0) return 'no lease lock ran';
  const twice = counted.filter((r) => r.audit.maxConcurrentHolders > 1);
  const lost = counted.reduce((n, r) => n + r.audit.lostUpdates, 0);
  return `lease locks: ${twice.length} of ${counted.length} run(s) had two holders at once (${twice.map((r) => r.strategy).join(', ') || 'none'}), ${lost} lost update(s) in all: counted, as the seeds warn`;
}

/** The README's failover figures: per run, its topology, the fault suite's table and the lease locks' two holders. */
export function renderFailoverSection(failover: FailoverRuns): string {
  return failover.runs
    .flatMap((run) => [
      `**${topology(run)}**: ${doubleHolders(run)}.`,
      '',
      renderReliabilitySection(run.results, run.startedAt.slice(0, 10)),
      '',
    ])
    .join('\n');
}
