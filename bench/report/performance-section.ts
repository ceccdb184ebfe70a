import type { LockBenchReport } from '../locks/render';
import { lockTargets, meetsTargets, ratiosToBestPeer } from '../locks/aggregate';
import { checkTargets } from '../targets';
import type { BenchReport } from '../types';
import { fixed, ms } from './format';

/**
 * The README's performance figures from a bench report and a micro-bench report: a compact
 * table of each, where we stand against every target, and the commands that measured it.
 */
export function renderPerformanceSection(bench: BenchReport, locks?: LockBenchReport): string {
  const m = bench.machine;
  const s = bench.settings;
  const lines = [
    `Measured on ${m.cpus} × ${m.cpuModel}, Node ${m.node}, ${bench.startedAt.slice(0, 16).replace('T', ' ')} UTC; the machine was shared, so read ratios rather than absolute figures.`,
    '',
    `\`npm run bench\`: stock ${s.stock}, ${s.requests} grabs over ${s.connections} connections through nginx to ${bench.target.replicas} replicas, workMs ${s.workMs}, segmented ${s.segments} segments.`,
    '',
    '| strategy | verdict | oversold | lost updates | grabs/s | p50 ms | p99 ms | util | lock held |',
    '|:---|:---|---:|---:|---:|---:|---:|---:|---:|',
    ...bench.results.map(
      (r) =>
        `| ${r.strategy} | ${r.verdict.correct ? 'correct' : `**${r.verdict.label}**`} | ${r.audit.oversold} | ${r.audit.lostUpdates} | ${fixed(r.grabsPerSec)} | ${ms(r.latency.p50)} | ${ms(r.latency.p99)} | ${fixed(r.utilisation.busyShare, 2)} | ${r.utilisation.lockHeldShare === undefined ? '–' : fixed(r.utilisation.lockHeldShare, 2)} |`,
    ),
    '',
    ...checkTargets(bench).map(
      (t) => `- ${t.met === undefined ? 'not measured' : t.met ? 'met' : '**not met**'}: ${t.target}: ${t.measured}`,
    ),
  ];
  if (locks) {
    const l = locks.settings;
    lines.push(
      '',
      `\`npm run bench:locks\`: ${l.processes} processes × ${l.waiters} waiters on one private Redis, GET + SET of a counter inside the lock, ${l.grants} grants per lock and round, median of ${l.rounds} round(s).`,
      '',
      '| lock | grants/s | failed | max wait ms | grants per waiter | Jain | counter = grants |',
      '|:---|---:|---:|---:|---:|---:|:---|',
      ...locks.results.map(
        (r) =>
          `| ${r.ours ? `${r.contender} (ours)` : r.contender} | ${fixed(r.grantsPerSec)} | ${r.failedAcquisitions} | ${r.maxWaitMs} | ${r.minGrantsPerWaiter}–${r.maxGrantsPerWaiter} | ${r.jain.toFixed(3)} | ${r.counterMatches ? 'yes' : '**no**'} |`,
      ),
      '',
      ...ratiosToBestPeer(locks.results).map(({ ours, bestPeer, ratio }) => {
        const met = meetsTargets(
          locks.results.find((r) => r.contender === ours)!,
          ratio,
        );
        return `- ${met ? 'met' : '**not met**'}: ${ours} ≥ ${lockTargets.ratio}× the best peer with 0 failed, Jain ≥ ${lockTargets.jain}, max wait ≤ ${lockTargets.maxWaitMs} ms: ${ratio.toFixed(2)}× ${bestPeer}`;
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}
