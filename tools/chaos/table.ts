import type { ScenarioResult } from './scenario';

const COLUMNS = [
  'fault',
  'strategy',
  'requests',
  'acked grants',
  'stored unacked',
  'grants in db',
  'oversold',
  'lost updates',
  'holders',
  'statuses',
  'recovery',
  'after recovery',
  'verdict',
] as const;

/** `{ '200': 240, '503 DEPENDENCY.UNAVAILABLE': 80 }` → `200×240 503 DEPENDENCY.UNAVAILABLE×80`, biggest first. */
export function statusSummary(statuses: Readonly<Record<string, number>>): string {
  return Object.entries(statuses)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([label, n]) => `${label}×${n}`)
    .join(' ');
}

/** The most overlapping sections on one stock row; marked where two holders are the expected failure. */
export function holders(r: ScenarioResult): string {
  const n = r.audit.maxConcurrentHolders;
  return r.doubleHoldersExpected && n > 1 ? `${n} (expected)` : String(n);
}

function row(r: ScenarioResult): string[] {
  return [
    r.fault,
    r.strategy,
    String(r.requests),
    String(r.acknowledged),
    String(r.resolution.storedUnacknowledged),
    String(r.audit.grants),
    String(r.audit.oversold),
    String(r.audit.lostUpdates),
    holders(r),
    statusSummary(r.statuses),
    r.recoveryMs === undefined ? 'never' : `${(r.recoveryMs / 1000).toFixed(1)} s`,
    String(r.answeredAfterRecovery),
    r.ok ? 'ok' : 'FAIL',
  ];
}

/** A plain-text table, one row per scenario, columns padded to their widest cell. */
export function renderTable(results: readonly ScenarioResult[]): string {
  const rows = [[...COLUMNS], ...results.map(row)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** The failed checks of every scenario, one line each; empty when all held. */
export function renderFailures(results: readonly ScenarioResult[]): string[] {
  return results.flatMap((r) =>
    r.checks.filter((c) => !c.ok).map((c) => `${r.fault} / ${r.strategy}: ${c.name} — ${c.detail}`),
  );
}

/** The requests whose fate the client could not know: what the database says became of them. */
export function renderDiedNotes(results: readonly ScenarioResult[]): string[] {
  return results
    .filter((r) => r.fault === 'replica-kill')
    .map(
      (r) =>
        `${r.fault} / ${r.strategy}: ${r.inFlightAtKill} in flight at the kill, ${r.diedWithReplica.count} died with the replica ` +
        `(nginx's 502 naming it), ${r.diedWithReplica.grantedInDb} of those granted in the database anyway`,
    );
}
