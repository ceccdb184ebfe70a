import { batchedChecks } from './batched-targets';
import { withCpuWhy } from './cpu-why';
import { IN_LOCK, scenarioFor } from './scenarios';
import { sellOutCheck } from './sell-out/sell-out-target';
import { soldOutCheck } from './sold-out-check';
import type { TargetCheck } from './target-check';
import type { BenchReport, LoadResult, StrategyResult } from './types';

export type { TargetCheck } from './target-check';

/** How a check reads in a report: verdict, target, measured figures, and the reason when short. */
export function checkLine(t: TargetCheck, notMet = 'NOT met'): string {
  const verdict = t.met === undefined ? '–' : t.met ? 'met' : notMet;
  return `${verdict}: ${t.target}: ${t.measured}${t.met === false && t.why ? `. Why: ${t.why}` : ''}`;
}

export const targetRatios = {
  atomicOfHotRow: 0.8,
  atomicOverWatchdog: 1.5,
  luaOfAtomic: 0.9,
  soldOutOfHttp: 0.7,
  segmentedOverOwnerChecked: 3,
  utilisationFloor: 0.8,
} as const;

/** Strategies that serialise every grab through one lock on the coupon. */
export function isSingleLock(strategy: string): boolean {
  const scenario = scenarioFor(strategy);
  return scenario.promisesExclusion && scenario.expectedFlags.length === 0 && scenario.segments === 'one';
}

const rate = (r: StrategyResult) => r.grabsPerSec.toFixed(0);
const cpuSide = (r?: StrategyResult) => r && { name: r.strategy, cpu: r.machineCpu };

function ratioCheck(
  target: string,
  a: StrategyResult | undefined,
  b: StrategyResult | undefined,
  floor: number,
): TargetCheck {
  if (!a || !b || b.grabsPerSec <= 0) return { target, measured: 'not run', met: undefined };
  const ratio = a.grabsPerSec / b.grabsPerSec;
  return { target, measured: `${ratio.toFixed(2)}× (${rate(a)} vs ${rate(b)} grabs/s)`, met: ratio >= floor };
}

function byName(load: LoadResult | undefined): Map<string, StrategyResult> {
  return new Map((load?.results ?? []).map((r) => [r.strategy, r]));
}

/** How fast each design can go (workMs 0), against the ceilings and each other. */
function speedChecks(report: BenchReport): TargetCheck[] {
  const load = report.loads.find((l) => l.workMs === 0);
  const by = byName(load);
  const atomic = by.get('db-atomic');
  const t = targetRatios;
  const hotRow = report.ceilings.pgHotRowPerSec;
  const checks: TargetCheck[] = [
    atomic && hotRow > 0
      ? {
          target: `db-atomic at workMs 0 ≥ ${t.atomicOfHotRow} × pg hot row ceiling`,
          measured: `${(atomic.grabsPerSec / hotRow).toFixed(2)}× (${rate(atomic)} vs ${hotRow.toFixed(0)}/s)`,
          met: atomic.grabsPerSec >= t.atomicOfHotRow * hotRow,
          ...(atomic.grabsPerSec < t.atomicOfHotRow * hotRow
            ? { why: bothOnOneMachine(atomic.grabsPerSec, report.ceilings.httpPerSec, hotRow) }
            : {}),
        }
      : {
          target: `db-atomic at workMs 0 ≥ ${t.atomicOfHotRow} × pg hot row ceiling`,
          measured: 'not run',
          met: undefined,
        },
    ratioCheck(
      `db-atomic at workMs 0 ≥ ${t.atomicOverWatchdog} × watchdog`,
      atomic,
      by.get('watchdog'),
      t.atomicOverWatchdog,
    ),
    withCpuWhy(
      ratioCheck(`redis-lua at workMs 0 ≥ ${t.luaOfAtomic} × db-atomic`, by.get('redis-lua'), atomic, t.luaOfAtomic),
      'grant up to the last grant',
      cpuSide(by.get('redis-lua')),
      cpuSide(atomic),
    ),
  ];
  checks.push(soldOutCheck(report, t.soldOutOfHttp));
  return checks;
}

/**
 * Each ceiling was measured with the machine to itself; a granted grab needs the HTTP path and the
 * statement both, on the same cores, so at best their costs add up.
 */
function bothOnOneMachine(perSec: number, http: number, hotRow: number): string | undefined {
  if (http <= 0 || hotRow <= 0) return undefined;
  const both = 1 / (1 / http + 1 / hotRow);
  return (
    `each ceiling had the machine to itself, a granted grab needs the HTTP path and the statement on the same cores: ` +
    `1/(1/${http.toFixed(0)} + 1/${hotRow.toFixed(0)}) = ${both.toFixed(0)}/s at best, of which it reached ${(perSec / both).toFixed(2)}`
  );
}

/** With work inside (the first load with workMs > 0). */
function workChecks(report: BenchReport): TargetCheck[] {
  const load = report.loads.find((l) => l.workMs > 0);
  const by = byName(load);
  const checks = [
    ratioCheck(
      `segmented (${report.settings.segments} segments) ≥ ${targetRatios.segmentedOverOwnerChecked}× owner-checked grabs/s at workMs ${load?.workMs ?? '> 0'}`,
      by.get('segmented'),
      by.get('owner-checked'),
      targetRatios.segmentedOverOwnerChecked,
    ),
  ];
  for (const r of (load?.results ?? []).filter((x) => isSingleLock(x.strategy))) {
    const held = r.utilisation.lockHeldShare;
    const notes = [
      ...(held === undefined ? [] : [`lock held ${held.toFixed(2)} of the window`]),
      ...(scenarioFor(r.strategy).workAt === IN_LOCK
        ? sectionAloneNote(report, r.workMs, r.utilisation.busyShare)
        : []),
    ];
    checks.push({
      target: `${r.strategy}: lock utilisation ≥ ${targetRatios.utilisationFloor} at workMs ${r.workMs}`,
      measured: r.utilisation.busyShare.toFixed(3) + (notes.length ? ` (${notes.join('; ')})` : ''),
      met: r.utilisation.busyShare >= targetRatios.utilisationFloor,
    });
  }
  return checks;
}

/** A lock's utilisation against its section alone with no lock, at the same workMs, in the same run. */
function sectionAloneNote(report: BenchReport, workMs: number, busyShare: number): string[] {
  const alone = report.ceilings.sectionAlone?.find((b) => b.workMs === workMs);
  if (!alone || alone.busyShare <= 0) return [];
  const of = `${(busyShare / alone.busyShare).toFixed(2)} of the section alone with no lock (${alone.busyShare.toFixed(3)})`;
  return alone.busyShare < targetRatios.utilisationFloor ? [`${of}, itself under the floor: out of reach here`] : [of];
}

function probeCheck(report: BenchReport): TargetCheck[] {
  const probes = report.workProbes;
  if (probes.length === 0) return [];
  const workMs = probes[0].workMs;
  const short = probes.filter((p) => !p.ok);
  return [
    {
      target: `every granted grab with workMs=${workMs} takes ≥ ${workMs} ms, every strategy`,
      measured: short.length
        ? `short: ${short.map((p) => `${p.strategy} ${p.granted ? `${p.minGrantedMs} ms` : 'none granted'}`).join(', ')}`
        : `fastest ${Math.min(...probes.map((p) => p.minGrantedMs))} ms over ${probes.length} strategies`,
      met: short.length === 0,
    },
  ];
}

export function checkTargets(report: BenchReport): TargetCheck[] {
  return [
    ...speedChecks(report),
    ...batchedChecks(report),
    ...probeCheck(report),
    ...workChecks(report),
    ...sellOutCheck(report.sellOut),
  ];
}

/** Every result whose verdict is not the one scenarios.ts expects: the run then fails. */
export function unexpectedVerdicts(report: BenchReport): StrategyResult[] {
  return report.loads.flatMap((l) => l.results.filter((r) => !r.verdict.asExpected));
}
