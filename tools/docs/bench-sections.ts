import type { Lesson } from '../../bench/types';
import { lessonItem, markdownTable } from '../../bench/report/render-text';
import { ceilingsLine } from '../../bench/report/columns';
import { fixed } from '../report/format';
import type { BenchReport } from '../../bench/types';

/** The fields of a lock micro-bench run the docs quote: the contract's, so they outlive its other figures. */
export interface LocksBaseline {
  readonly startedAt: string;
  readonly results: readonly {
    readonly contender: string;
    readonly ours: boolean;
    readonly grantsPerSec: number;
    readonly failedAcquisitions: number;
    readonly maxWaitMs: number;
    readonly p99WaitMs?: number;
    readonly jain: number;
    readonly grantsPerProcess: readonly number[];
    readonly counterMatches: boolean;
  }[];
  /** Absent from runs made before the micro-bench stated its lessons. */
  readonly lessons?: readonly Lesson[];
}

/** `2026-11-25T15:08:36.000Z` → `2026-11-25 15:08`. */
const utcMinute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

const verdictOf = (bench: BenchReport, strategy: string) => {
  const labels = [
    ...new Set(
      bench.loads.flatMap((l) => l.results.filter((r) => r.strategy === strategy).map((r) => r.verdict.label)),
    ),
  ];
  return labels.length === 1
    ? labels[0]
    : bench.loads
        .flatMap((l) =>
          l.results.filter((r) => r.strategy === strategy).map((r) => `${r.verdict.label} at ${l.workMs}`),
        )
        .join('; ');
};

/** The README's results: one row per strategy, its grabs/s under each load, its verdict. */
export function renderResultsSection(bench: BenchReport): string {
  const loads = bench.loads;
  const m = bench.machine;
  return [
    `\`npm run demo\` on ${m.cpus} × ${m.cpuModel}, ${utcMinute(bench.startedAt)} UTC (stock ${bench.settings.stock}, ` +
      `${bench.settings.requests} grabs per round; a shared machine, so read the figures against each other).`,
    '',
    `| strategy | ${loads.map((l) => `grabs/s at workMs ${l.workMs}`).join(' | ')} | verdict |`,
    `|:---|${loads.map(() => '---:').join('|')}|:---|`,
    ...bench.settings.strategies.map((s) => {
      const rates = loads.map((l) => fixed(l.results.find((r) => r.strategy === s)?.grabsPerSec ?? Number.NaN));
      return `| \`${s}\` | ${rates.join(' | ')} | ${verdictOf(bench, s)} |`;
    }),
    '',
  ].join('\n');
}

/** The lessons of the committed runs: the bench's, then the micro-bench's when its run states them. */
export function renderLessonsSection(bench: BenchReport, locks?: LocksBaseline): string {
  const fromLocks = Array.isArray(locks?.lessons) ? locks.lessons : [];
  return [
    ...bench.lessons.map(lessonItem),
    ...(fromLocks.length > 0
      ? ['', 'From the lock micro-bench (`npm run bench:locks`):', '', ...fromLocks.map(lessonItem)]
      : []),
    '',
  ].join('\n');
}

/** docs/bench.md's figures: the run, its ceilings, a full table per load, the sell-out race. */
export function renderBenchSection(bench: BenchReport): string {
  const m = bench.machine;
  return [
    `Run on ${m.cpus} × ${m.cpuModel}, Node ${m.node}, ${utcMinute(bench.startedAt)} UTC. ${bench.method}`,
    '',
    `${ceilingsLine(bench.ceilings)}.`,
    ...bench.loads.flatMap((load) => ['', `**workMs ${load.workMs}**`, '', ...markdownTable(load)]),
    ...(bench.sellOut
      ? [
          '',
          `Sell-out race: ${bench.sellOut.buyers} buyers for ${bench.sellOut.stock} units, ${bench.sellOut.inFlight} in flight, workMs ${bench.sellOut.workMs}, first request to last 200:`,
          '',
          ...bench.sellOut.runs.map(
            (r) => `- ${r.strategy} (${r.segments} row(s)): ${r.sellOutMs} ms, ${r.stockLeft} left`,
          ),
        ]
      : []),
    '',
  ].join('\n');
}

/** docs/bench.md's micro-bench table, from the contract's fields of its run. */
export function renderLocksSection(locks: LocksBaseline): string {
  return [
    `\`npm run bench:locks\`, run ${utcMinute(locks.startedAt)} UTC.`,
    '',
    '| lock | grants/s | failed | max wait ms | p99 wait ms | Jain | grants per process | counter = grants |',
    '|:---|---:|---:|---:|---:|---:|---:|:---|',
    ...locks.results.map(
      (r) =>
        `| ${r.ours ? `${r.contender} (ours)` : r.contender} | ${fixed(r.grantsPerSec)} | ${r.failedAcquisitions} | ${r.maxWaitMs} | ${r.p99WaitMs ?? '–'} | ${r.jain.toFixed(3)} | ${r.grantsPerProcess.join(' / ')} | ${r.counterMatches ? 'yes' : '**no**'} |`,
    ),
    '',
  ].join('\n');
}
