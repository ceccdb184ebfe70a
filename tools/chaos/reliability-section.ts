import type { ScenarioResult } from './scenario';
import {
  acknowledgedCell,
  holders,
  renderDiedNotes,
  renderFailures,
  renderLossNotes,
  withDocumentedLoss,
  statusSummary,
  verdictCell,
} from './table';

/** The run's load and fault timing, as the results record them (not the defaults: a run may differ). */
function settings(results: readonly ScenarioResult[]): string {
  const first = results[0];
  if (!first) return 'no runs';
  const down = results.find((r) => r.fault !== 'replica-kill');
  return (
    `${first.requests} grabs per run through nginx, stock ${first.audit.initialStock}, the fault ${(first.injectedAtMs / 1000).toFixed(1)} s in` +
    (down ? `, a dependency down ${((down.healedAtMs - down.injectedAtMs) / 1000).toFixed(1)} s` : '')
  );
}

/**
 * The README's reliability figures from one `npm run chaos -- --json FILE` run: a row per fault
 * and strategy with the database's verdict, what died with a killed replica, and anything broken.
 */
export function renderReliabilitySection(results: readonly ScenarioResult[], ranOn: string): string {
  const recovery = (r: ScenarioResult) =>
    r.recoveryMs === undefined ? 'never' : `${(r.recoveryMs / 1000).toFixed(1)} s`;
  const failures = renderFailures(results);
  return [
    `\`npm run chaos\` on ${ranOn}: ${settings(results)}.`,
    '',
    '| fault | strategy | requests | acked grants | stored unacked | grants in db | oversold | lost updates | holders | statuses | recovery | after recovery | verdict |',
    '|:---|:---|---:|---:|---:|---:|---:|---:|---:|:---|---:|---:|:---|',
    ...results.map(
      (r) =>
        `| ${r.fault} | ${r.strategy} | ${r.requests} | ${acknowledgedCell(r)} | ${r.resolution.storedUnacknowledged} | ${r.audit.grants} | ` +
        `${r.audit.oversold} | ${r.audit.lostUpdates} | ${holders(r)} | ${statusSummary(r.statuses)} | ${recovery(r)} | ${r.answeredAfterRecovery} | ${verdictCell(r, '**FAIL**')} |`,
    ),
    '',
    'Recovery runs from the moment the fault began until every replica answers its health check for good; ' +
      '"after recovery" counts the grabs sent after it (each must be served). "Stored unacked": grants whose first ' +
      'answer was a 502 or a 503, found stored when the buyer asked (GET /coupons/:id/grants/:userId).' +
      (results.some((r) => r.accepted !== undefined)
        ? ' For redis-stream, "acked grants" counts its 202 answers, and its grants are counted once its order stream drained.'
        : ''),
    '',
    ...[...renderDiedNotes(results), ...renderLossNotes(results)].map((note) => `- ${note}`),
    '',
    failures.length
      ? `Invariants broken:\n${failures.map((f) => `- ${f}`).join('\n')}`
      : `Every invariant held in ${results.length} runs${withDocumentedLoss(results)}.`,
  ].join('\n');
}
