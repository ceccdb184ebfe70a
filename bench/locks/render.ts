import type { MachineInfo } from '../types';
import type { LockBenchResult } from './aggregate';
import { bestPeer, handoffShare, lockTargets, missedTargets, ratiosPerRound, ratiosToBestPeer } from './lock-targets';
import { coresBusyLine, costsEach, cpuCell, cpuWaitLine } from './render-cpu';
import { sameProcessLine } from './same-process';
import { fastestNoLock, type LockCeilings } from './no-lock-bound';
import { whyMissed } from './render-why';
import type { SectionCeiling } from './section-ceiling';
import type { RunCeiling, TurnCeiling } from './turn-ceiling';

export interface LockBenchReport {
  readonly startedAt: string;
  readonly machine: MachineInfo;
  readonly settings: {
    readonly processes: number;
    readonly waiters: number;
    readonly seconds: number;
    /** Run together before the window opens (absent from runs made before there was a settle). */
    readonly settleSeconds?: number;
    readonly rounds: number;
    readonly leaseMs: number;
  };
  readonly method: string;
  /** The section alone with no lock, in the same run (absent from runs made before it was measured). */
  readonly ceiling?: SectionCeiling;
  /** The section passed from process to process with no lock, in the same run (absent from earlier runs). */
  readonly turnCeiling?: TurnCeiling;
  /** The turn ring making a claim-lease hand-off's calls (claim, set-and-wake), in the same run (absent from earlier runs). */
  readonly handoffCeiling?: TurnCeiling;
  /** The same ring with ours's longest run of grants per turn, in the same run (absent from earlier runs). */
  readonly runCeiling?: RunCeiling;
  readonly results: LockBenchResult[];
}

const header = [
  'lock',
  'grants/s',
  'of ceiling',
  'rounds grants/s',
  'failed',
  'max wait ms',
  'p99 wait ms',
  'per waiter min/max',
  'Jain',
  'per process',
  'counter = grants',
  'CPU µs per grant (Node+Redis)',
];

function label(r: LockBenchResult): string {
  if (r.ours) return `${r.contender} (ours)`;
  return r.atDefaults ? `${r.contender} (defaults)` : r.contender;
}

/** grants/s as a share of the fastest the section ran with no lock in the run ('–' for a run that did not measure it). */
export function ofCeiling(r: LockBenchResult, ceilings: LockCeilings): string {
  const bound = fastestNoLock(ceilings)?.perSec;
  return bound !== undefined ? (r.grantsPerSec / bound).toFixed(2) : '–';
}

function cells(r: LockBenchResult, ceilings: LockCeilings): string[] {
  return [
    label(r),
    r.grantsPerSec.toFixed(0),
    ofCeiling(r, ceilings),
    (r.roundsGrantsPerSec ?? [r.grantsPerSec]).map((g) => g.toFixed(0)).join(' '),
    String(r.failedAcquisitions),
    String(r.maxWaitMs),
    String(r.p99WaitMs),
    `${r.minGrantsPerWaiter}/${r.maxGrantsPerWaiter}`,
    r.jain.toFixed(3),
    `${r.grantsPerProcess.join(' ')} (±${(r.processDeviation * 100).toFixed(0)}%)`,
    r.counterMatches
      ? `yes (${r.counter})`
      : r.counter !== r.grants
        ? `NO ${r.counter}≠${r.grants}`
        : 'NO (in another round)',
    cpuCell(r.cpuMicrosPerGrant),
  ];
}

/** Where each of ours stands against the targets, and how much hand-off adds. */
export function lockVerdictLines(report: LockBenchReport): string[] {
  const ceiling = report.ceiling?.sectionPerSec;
  const peer = bestPeer(report.results);
  const lines = ratiosToBestPeer(report.results).map(({ ours, bestPeer, ratio }) => {
    const result = report.results.find((r) => r.contender === ours)!;
    const floor = lockTargets.ratios[ours];
    const perRound = peer && ratiosPerRound(result, peer);
    const rounds = perRound ? ` (by round: ${perRound.map((r) => r.toFixed(2)).join(', ')})` : '';
    if (floor === undefined) return `${ours}: ${ratio.toFixed(2)}× ${bestPeer}${rounds} (no target)`;
    const missed = missedTargets(result, ratio);
    const goal = `≥ ${floor}× ${bestPeer}, 0 failed, Jain ≥ ${lockTargets.jain}, processes within ±${lockTargets.processDeviation * 100}%, max wait ≤ ${lockTargets.maxWaitMs} ms, counter = grants`;
    const line = `${ours}: ${ratio.toFixed(2)}× ${bestPeer}${rounds}: ${missed.length ? `NOT met (${missed.join(', ')})` : 'met'}; target ${goal}`;
    const why = ratio < floor ? whyMissed(report, result, { floor, ratio, label: `${floor}× ${bestPeer}` }, peer) : '';
    return `${line}${why}`;
  });
  const turns = report.turnCeiling?.turnsPerSec;
  if (ceiling !== undefined) {
    const inTurn =
      turns === undefined
        ? ''
        : `; passed from process to process, ${turns.toFixed(0)} turns/s (${(turns / ceiling).toFixed(2)} of it)${costsEach(report.turnCeiling?.cpuMicrosPerTurn)}`;
    const handoff = report.handoffCeiling?.turnsPerSec;
    const withHandoff =
      handoff === undefined
        ? ''
        : `; so passed with the calls of a queue hand-off with a claim lease (a claim, a set-and-wake), ${handoff.toFixed(0)} turns/s (${(handoff / ceiling).toFixed(2)} of it)${costsEach(report.handoffCeiling?.cpuMicrosPerTurn)}`;
    const runs = report.runCeiling;
    const inRuns = runs
      ? `; in runs of ${runs.sectionsPerTurn} per process, ${runs.sectionPerSec.toFixed(0)} sections/s (${(runs.sectionPerSec / ceiling).toFixed(2)} of it)${costsEach(runs.cpuMicrosPerSection)}`
      : '';
    // Shares are of the fastest no-lock reading; it is the section alone unless a ring beat it.
    const fastest = fastestNoLock(report); // none when every reading was 0
    const ofFastest = fastest?.how === 'alone' ? 'it' : `the fastest of these (${fastest?.label})`;
    const peerShare =
      peer && fastest
        ? `; the best peer at its defaults (${peer.contender}) ran at ${(peer.grantsPerSec / fastest.perSec).toFixed(2)} of ${ofFastest}`
        : '';
    lines.unshift(
      `ceiling: the section alone, no lock, ${ceiling.toFixed(0)} sections/s${costsEach(report.ceiling?.cpuMicrosPerSection)}${inTurn}${withHandoff}${inRuns}${peerShare}`,
    );
  }
  const rings = {
    section: report.ceiling,
    turns: report.turnCeiling,
    handoff: report.handoffCeiling,
    runs: report.runCeiling,
  };
  const busy = coresBusyLine(report.results, rings, report.machine.cpus);
  if (busy) lines.push(busy);
  const waiting = cpuWaitLine(report.results, rings);
  if (waiting) lines.push(waiting);
  const stayed = sameProcessLine(report.results);
  if (stayed) lines.push(stayed);
  const share = handoffShare(report.results);
  if (share) {
    lines.push(
      `local hand-off: ${share.withHandoff.toFixed(2)}× the best peer with it, ${share.without.toFixed(2)}× without it`,
    );
  }
  return lines;
}

export function renderLockTable(report: LockBenchReport): string {
  const rows = [header, ...report.results.map((r) => cells(r, report))];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...report.results.map((r) => line(cells(r, report))),
    '',
    ...lockVerdictLines(report),
  ].join('\n');
}

/** Each ceiling the report has, as ` Name${after}: method`, in the order they are measured. */
export function ceilingMethods(report: LockBenchReport, after = ''): string {
  const ceilings = [
    ['Ceiling', report.ceiling],
    ['Turn ceiling', report.turnCeiling],
    ['Hand-off ring', report.handoffCeiling],
    ['Run ceiling', report.runCeiling],
  ] as const;
  return ceilings.map(([name, ceiling]) => (ceiling ? ` ${name}${after}: ${ceiling.method}` : '')).join('');
}

/** How long each lock was measured, and after what settle (older runs had none). */
export function windowPhrase(settings: LockBenchReport['settings']): string {
  const settle = settings.settleSeconds ? ` after a ${settings.settleSeconds} s settle` : '';
  return `${settings.seconds} s per lock and round${settle}`;
}

export function renderLockMarkdown(report: LockBenchReport): string {
  const m = report.machine;
  const s = report.settings;
  return [
    `# Lock micro-bench, ${report.startedAt}`,
    '',
    `- Machine: ${m.cpus} × ${m.cpuModel}, ${m.totalMemGb} GB, ${m.platform}`,
    `- Node: ${m.node}`,
    `- Run: ${s.processes} processes × ${s.waiters} waiters, ${windowPhrase(s)}, ${s.rounds} round(s), lease ${s.leaseMs} ms`,
    '',
    `Method: ${report.method}${ceilingMethods(report)}`,
    '',
    `| ${header.join(' | ')} |`,
    `|:---|${header
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
    ...report.results.map((r) => `| ${cells(r, report).join(' | ')} |`),
    '',
    ...lockVerdictLines(report).map((l) => `- ${l}`),
    '',
  ].join('\n');
}
