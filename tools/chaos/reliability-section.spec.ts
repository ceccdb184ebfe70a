import { renderReliabilitySection } from './reliability-section';
import { scenarioResult } from './scenario-result.fixture';

describe('README reliability section', () => {
  it('has a Markdown row per run with the database figures, and says all held', () => {
    const md = renderReliabilitySection(
      [scenarioResult({}), scenarioResult({ fault: 'postgres-restart', strategy: 'db-atomic', recoveryMs: 40 })],
      '2026-11-23',
    );
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| fault'));
    expect(rows).toEqual([
      '| redis-restart | watchdog | 600 | 239 | 0 | 239 | 0 | 0 | 1 | 503 DEPENDENCY.UNAVAILABLE×361 200×239 | 5.5 s | 150 | ok |',
      '| postgres-restart | db-atomic | 600 | 239 | 0 | 239 | 0 | 0 | 1 | 503 DEPENDENCY.UNAVAILABLE×361 200×239 | 0.0 s | 150 | ok |',
    ]);
    expect(md).toContain(
      'on 2026-11-23: 600 grabs per run through nginx, stock 300, the fault 2.0 s in, a dependency down 5.0 s.',
    );
    expect(md).toMatch(/Every invariant held in 2 runs\.$/);
  });

  it('marks a failed run and lists what broke instead of claiming all held', () => {
    const checks = [{ name: 'oversold 0', ok: false, detail: 'oversold 2' }];
    const md = renderReliabilitySection([scenarioResult({ checks, ok: false, recoveryMs: undefined })], '2026-11-23');
    expect(md).toContain('| never | 150 | **FAIL** |');
    expect(md).toContain('- redis-restart / watchdog: oversold 0 — oversold 2');
    expect(md).not.toContain('Every invariant held');
  });

  it('tells what became of the requests that died with a killed replica', () => {
    const md = renderReliabilitySection(
      [scenarioResult({ fault: 'replica-kill', inFlightAtKill: 8, diedWithReplica: { count: 2, grantedInDb: 1 } })],
      'x',
    );
    expect(md).toContain('- replica-kill / watchdog: 8 in flight at the kill, 2 died with the replica');
  });

  it('renders a redis-stream row: its 202 answers acknowledged, a documented loss counted in the verdict', () => {
    const stream = scenarioResult({
      strategy: 'redis-stream',
      acknowledged: 0,
      accepted: 242,
      lostByDesign: 3,
      statuses: { '202': 242, '503 DEPENDENCY.UNAVAILABLE': 358 },
    });
    const md = renderReliabilitySection([stream], '2026-11-28');
    expect(md).toContain(
      '| redis-restart | redis-stream | 600 | 242 (242 accepted) | 0 | 239 | 0 | 0 | 1 | 503 DEPENDENCY.UNAVAILABLE×358 202×242 | 5.5 s | 150 | ok, 3 accepted lost (no AOF) |',
    );
    expect(md).toContain('For redis-stream, "acked grants" counts its 202 answers');
    expect(md).toContain("- redis-restart / redis-stream: 3 of 242 accepted orders lost with Redis's memory");
    expect(md).toMatch(
      /Every invariant held in 1 runs, 1 of them with the documented loss of accepted orders counted above\.$/,
    );
  });
});
