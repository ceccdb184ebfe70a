import { lowerMedian } from './metrics/median';
import { soldOutRates } from './metrics/sold-out-rates';
import type { TargetCheck } from './target-check';
import type { BenchReport, StrategyResult } from './types';

/** db-batched at workMs 0, against db-atomic and the ceilings of the same run (issue 13). */
export const batchedRatios = {
  overAtomic: 2,
  overHotRow: 2,
  ofHttp: 0.5,
  /** Its p99 at most this many times db-atomic's. */
  p99OfAtomic: 2,
} as const;

const BATCHED = 'db-batched';

function floorCheck(target: string, ratio: number, floor: number, figures: string): TargetCheck {
  return { target, measured: `${ratio.toFixed(2)}× (${figures})`, met: ratio >= floor };
}

const notRun = (target: string): TargetCheck => ({ target, measured: 'not run', met: undefined });

/** Throughput and tail at workMs 0, and exactness under every load. */
export function batchedChecks(report: BenchReport): TargetCheck[] {
  const runs = report.loads.flatMap((l) => l.results.filter((r) => r.strategy === BATCHED));
  if (runs.length === 0) return [];
  const load = report.loads.find((l) => l.workMs === 0);
  const batched = load?.results.find((r) => r.strategy === BATCHED);
  const atomic = load?.results.find((r) => r.strategy === 'db-atomic');
  const { httpPerSec, pgHotRowPerSec } = report.ceilings;
  const r = batchedRatios;
  const rate = (x: StrategyResult) => x.grabsPerSec.toFixed(0);
  const t = {
    atomic: `${BATCHED} at workMs 0 ≥ ${r.overAtomic} × db-atomic`,
    hotRow: `${BATCHED} at workMs 0 ≥ ${r.overHotRow} × pg hot row ceiling`,
    http: `${BATCHED} at workMs 0 ≥ ${r.ofHttp} × http ceiling`,
    p99: `${BATCHED} p99 at workMs 0 ≤ ${r.p99OfAtomic} × db-atomic's`,
    exact: `${BATCHED} exact in every load (oversold 0, lost updates 0, every 200 a grant)`,
  };
  const checks: TargetCheck[] = [];
  // The grab path alone (a turned-away grab: the same POST, no database), measured in the same run.
  const path = lowerMedian(soldOutRates(report));
  const pathWhy = (wanted: number, x: StrategyResult) =>
    path === undefined
      ? undefined
      : `${wanted.toFixed(0)}/s wanted; the grab path alone (a sold-out grab through nginx, no database) ran at ${path.toFixed(0)}/s in this run, and ${BATCHED} at ${(x.grabsPerSec / path).toFixed(2)} of it`;
  const withWhy = (check: TargetCheck, why: string | undefined) => (check.met || !why ? check : { ...check, why });
  if (batched && atomic && atomic.grabsPerSec > 0) {
    const check = floorCheck(
      t.atomic,
      batched.grabsPerSec / atomic.grabsPerSec,
      r.overAtomic,
      `${rate(batched)} vs ${rate(atomic)} grabs/s`,
    );
    checks.push(withWhy(check, pathWhy(r.overAtomic * atomic.grabsPerSec, batched)));
  } else checks.push(notRun(t.atomic));
  if (batched && pgHotRowPerSec > 0) {
    const figures = `${rate(batched)} vs ${pgHotRowPerSec.toFixed(0)}/s`;
    const check = floorCheck(t.hotRow, batched.grabsPerSec / pgHotRowPerSec, r.overHotRow, figures);
    // Through nginx no grab outruns the HTTP path alone: past that, the target is out of reach here.
    const reach = httpPerSec / pgHotRowPerSec;
    const why = `the http ceiling itself is ${reach.toFixed(2)}× the pg hot row ceiling: no grab through nginx gets to ${r.overHotRow}×`;
    checks.push(check.met || reach >= r.overHotRow ? check : { ...check, why });
  } else checks.push(notRun(t.hotRow));
  if (batched && httpPerSec > 0) {
    const check = floorCheck(
      t.http,
      batched.grabsPerSec / httpPerSec,
      r.ofHttp,
      `${rate(batched)} vs ${httpPerSec.toFixed(0)}/s`,
    );
    checks.push(withWhy(check, pathWhy(r.ofHttp * httpPerSec, batched)));
  } else checks.push(notRun(t.http));
  if (batched && atomic) {
    const [mine, theirs] = [batched.latency.all.p99, atomic.latency.all.p99];
    checks.push({
      target: t.p99,
      measured: `${mine.toFixed(1)} vs ${theirs.toFixed(1)} ms (${(mine / theirs).toFixed(2)}×)`,
      met: mine <= r.p99OfAtomic * theirs,
    });
  } else checks.push(notRun(t.p99));
  const inexact = runs.filter(
    (x) => x.audit.oversold > 0 || x.audit.lostUpdates > 0 || !x.reconciliation.matches || !x.verdict.correct,
  );
  checks.push({
    target: t.exact,
    measured: inexact.length
      ? `not exact at workMs ${inexact.map((x) => `${x.workMs} (${x.verdict.label})`).join(', ')}`
      : `${runs.length} load(s), ${runs.map((x) => `${x.audit.grants} grants in ${x.audit.statements} statements`).join('; ')}`,
    met: inexact.length === 0,
  });
  return checks;
}
