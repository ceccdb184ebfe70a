import { lowerMedian } from '../metrics/median';
import type { LockBenchResult } from './aggregate';

/** The micro-bench's targets: ours against the best peer at its defaults, and what must hold for ours. */
export const lockTargets = {
  ratios: { 'owner-checked': 2, 'owner-checked:no-local-handoff': 1.2 } as Readonly<Record<string, number>>,
  failedAcquisitions: 0,
  jain: 0.95,
  processDeviation: 0.1,
  maxWaitMs: 200,
} as const;

export interface PeerRatio {
  readonly ours: string;
  readonly bestPeer: string;
  /** Our grants/s over the best peer's. */
  readonly ratio: number;
}

/** The fastest peer run at its library's defaults (tuned variants do not set the bar). */
export function bestPeer(results: readonly LockBenchResult[]): LockBenchResult | undefined {
  const peers = results.filter((r) => !r.ours && r.atDefaults);
  return peers.length === 0 ? undefined : peers.reduce((a, b) => (b.grantsPerSec > a.grantsPerSec ? b : a));
}

/**
 * Each of our locks against the best peer at its defaults. When both ran the same rounds, the
 * ratio is the median round's: each round runs every contender one after another, so a round's
 * ratio compares two locks measured minutes apart at most, while their own median rounds may lie
 * far apart on a drifting machine (the lower middle for an even count, as `medianRound` takes).
 * Otherwise (one round), the ratio of their rates.
 */
export function ratiosToBestPeer(results: readonly LockBenchResult[]): PeerRatio[] {
  const best = bestPeer(results);
  if (!best) return [];
  return results
    .filter((r) => r.ours)
    .map((r) => ({ ours: r.contender, bestPeer: best.contender, ratio: pairedRatio(r, best) }));
}

function pairedRatio(ours: LockBenchResult, peer: LockBenchResult): number {
  const perRound = ratiosPerRound(ours, peer);
  if (perRound) return lowerMedian([...perRound].sort((a, b) => a - b))!;
  return peer.grantsPerSec > 0 ? ours.grantsPerSec / peer.grantsPerSec : Number.POSITIVE_INFINITY;
}

/**
 * Ours over the peer round by round (each round ran every contender, one after another), when
 * both ran the same rounds: how far the machine's drift moves the ratio.
 */
export function ratiosPerRound(ours: LockBenchResult, peer: LockBenchResult): number[] | undefined {
  const a = ours.roundsGrantsPerSec;
  const b = peer.roundsGrantsPerSec;
  if (!a || !b || a.length !== b.length || a.length < 2) return undefined;
  return a.map((g, i) => (b[i] > 0 ? g / b[i] : Number.POSITIVE_INFINITY));
}

/** What a result misses of the targets ([] when it meets them all, or has none). */
export function missedTargets(result: LockBenchResult, ratio: number): string[] {
  const floor = lockTargets.ratios[result.contender];
  if (floor === undefined) return [];
  const missed: string[] = [];
  if (ratio < floor) missed.push(`${ratio.toFixed(2)}× < ${floor}×`);
  if (result.failedAcquisitions > lockTargets.failedAcquisitions) missed.push(`${result.failedAcquisitions} failed`);
  if (result.jain < lockTargets.jain) missed.push(`Jain ${result.jain.toFixed(3)}`);
  if (result.processDeviation > lockTargets.processDeviation)
    missed.push(`processes ±${(result.processDeviation * 100).toFixed(1)}%`);
  if (result.maxWaitMs > lockTargets.maxWaitMs) missed.push(`max wait ${result.maxWaitMs} ms`);
  if (!result.counterMatches) missed.push('counter ≠ grants');
  return missed;
}

/** How much of our lead over the best peer local hand-off accounts for: shipped vs ablated, both over the peer. */
export function handoffShare(
  results: readonly LockBenchResult[],
): { withHandoff: number; without: number } | undefined {
  const ratios = new Map(ratiosToBestPeer(results).map((r) => [r.ours, r.ratio]));
  const withHandoff = ratios.get('owner-checked');
  const without = ratios.get('owner-checked:no-local-handoff');
  return withHandoff === undefined || without === undefined ? undefined : { withHandoff, without };
}
