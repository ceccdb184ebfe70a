import type { ScenarioResult } from './scenario';
import { renderDiedNotes, renderFailures, statusSummary } from './table';

/**
 * The README's reliability figures from one `npm run chaos -- --json FILE` run: a row per fault
 * and strategy with the database's verdict, what died with a killed replica, and anything broken.
 */
export function renderReliabilitySection(results: readonly ScenarioResult[], ranOn: string): string {
  const recovery = (r: ScenarioResult) => (r.recoveryMs === undefined ? 'never' : `${(r.recoveryMs / 1000).toFixed(1)} s`);
  const failures = renderFailures(results);
  return [
    `\`npm run chaos\` on ${ranOn}, defaults (600 grabs per run through nginx, stock 300, the fault 2 s in, a dependency down 5 s):`,
    '',
    '| fault | strategy | requests | acked grants | grants in db | oversold | lost updates | statuses | recovery | verdict |',
    '|:---|:---|---:|---:|---:|---:|---:|:---|---:|:---|',
    ...results.map((r) =>
      `| ${r.fault} | ${r.strategy} | ${r.requests} | ${r.acknowledged} | ${r.audit.grants} | ${r.audit.oversold} | ${r.audit.lostUpdates} | ` +
      `${statusSummary(r.statuses)} | ${recovery(r)} | ${r.ok ? 'ok' : '**FAIL**'} |`),
    '',
    ...renderDiedNotes(results).map((note) => `- ${note}`),
    '',
    failures.length
      ? `Invariants broken:\n${failures.map((f) => `- ${f}`).join('\n')}`
      : `Every invariant held in ${results.length} runs.`,
  ].join('\n');
}
