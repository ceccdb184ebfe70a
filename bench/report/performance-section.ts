import type { LockBenchReport } from '../locks/render';
import { ceilingMethods, lockVerdictLines, ofCeiling, windowPhrase } from '../locks/render';
import { cpuCell } from '../locks/render-cpu';
import { ceilingLabel } from '../metrics/bound';
import { scenarioFor } from '../scenarios';
import { checkLine, checkTargets } from '../targets';
import type { BenchReport, LoadResult } from '../types';
import { ceilingsLine, machineCpuCell } from './columns';
import { fixed, ms } from './format';

function loadTable(load: LoadResult): string[] {
  return [
    `**workMs ${load.workMs}**`,
    '',
    '| strategy | verdict | grabs/s | of ceiling | granted p50 / p99 ms | turned away p50 / p99 ms | sold-out/s | util | machine CPU µs per grant |',
    '|:---|:---|---:|---:|---:|---:|---:|---:|---:|',
    ...load.results.map((r) => {
      const verdict = r.verdict.correct ? 'correct' : `**${r.verdict.label}**`;
      const expected = r.verdict.asExpected ? '' : ' (NOT as expected)';
      return `| ${r.strategy} | ${verdict}${expected} | ${fixed(r.grabsPerSec)} | ${fixed(r.bound.share, 2)} ${ceilingLabel[r.bound.ceiling]} | ${ms(r.latency.granted.p50)} / ${ms(r.latency.granted.p99)} | ${ms(r.latency.turnedAway.p50)} / ${ms(r.latency.turnedAway.p99)} | ${r.soldOut ? fixed(r.soldOut.perSec) : '–'} | ${fixed(r.utilisation.busyShare, 2)} | ${machineCpuCell(r)} |`;
    }),
    '',
  ];
}

/** Where each strategy spends workMs, from scenarios.ts. */
function workPlaces(bench: BenchReport): string[] {
  const strategies = bench.settings.strategies;
  return [
    '| strategy | where workMs is spent |',
    '|:---|:---|',
    ...strategies.map((s) => `| ${s} | ${scenarioFor(s).workAt} |`),
    '',
  ];
}

/**
 * The README's performance figures from a bench report and a micro-bench report: the ceilings,
 * a compact table per load, where each target stands, and the micro-bench with its ablation.
 */
/** `2026-11-25T15:08:36.000Z` → `2026-11-25 15:08`. */
const utcMinute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

export function renderPerformanceSection(bench: BenchReport, locks?: LockBenchReport): string {
  const m = bench.machine;
  const s = bench.settings;
  const lines = [
    `Measured on ${m.cpus} × ${m.cpuModel}, Node ${m.node}, ${utcMinute(bench.startedAt)} UTC; the machine was shared, so read ratios within the run rather than absolute figures.`,
    '',
    `\`npm run bench\`: stock ${s.stock}, ${s.requests} grabs over ${s.connections} connections through nginx to ${bench.target.replicas} replicas, loads workMs ${s.loads.join(' and ')}, segmented ${s.segments} segments. ${ceilingsLine(bench.ceilings)} (in the same run: ${bench.ceilings.method})`,
    '',
    ...bench.loads.flatMap(loadTable),
    ...checkTargets(bench).map((t) => `- ${checkLine(t, '**not met**').replace(/^–:/, 'not measured:')}`),
    '',
    ...workPlaces(bench),
  ];
  if (locks) {
    const l = locks.settings;
    lines.push(
      `\`npm run bench:locks\`, run ${utcMinute(locks.startedAt)} UTC: ${l.processes} processes × ${l.waiters} waiters on one private Redis, GET + SET of a counter inside the lock, ${windowPhrase(l)}, median of ${l.rounds} round(s); max wait, failures and the counter check over every round.${ceilingMethods(locks, ', in the same run')}`,
      '',
      '| lock | grants/s | of ceiling | failed | max wait ms | grants per waiter | Jain | grants per process | counter = grants | CPU µs per grant (Node+Redis) |',
      '|:---|---:|---:|---:|---:|---:|---:|---:|:---|---:|',
      ...locks.results.map(
        (r) =>
          `| ${r.ours ? `${r.contender} (ours)` : r.atDefaults ? `${r.contender} (defaults)` : r.contender} | ${fixed(r.grantsPerSec)} | ${ofCeiling(r, locks)} | ${r.failedAcquisitions} | ${r.maxWaitMs} | ${r.minGrantsPerWaiter}–${r.maxGrantsPerWaiter} | ${r.jain.toFixed(3)} | ${r.grantsPerProcess.join(' / ')} | ${r.counterMatches ? 'yes' : '**no**'} | ${cpuCell(r.cpuMicrosPerGrant)} |`,
      ),
      '',
      ...lockVerdictLines(locks).map((line) => `- ${line}`),
    );
  }
  return `${lines.join('\n')}\n`;
}
