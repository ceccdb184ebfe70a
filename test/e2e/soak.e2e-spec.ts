import { renderSoakHtml, soakVerdict } from '../../tools/soak/soak-report';
import { runSoak, SOAK_STRATEGIES, type SoakReport } from '../../tools/soak/soak-run';
import { FAULT_NAMES, healAll } from '../../tools/chaos/faults';
import { testStack } from './support/stack';

jest.setTimeout(240_000);

// The soak of `npm run soak` for one minute: each strategy for 15 s at half its measured rate, a
// fault every 20 s (so all three come by), memory and lag sampled every second.
describe('npm run soak, one minute', () => {
  let report: SoakReport;

  beforeAll(async () => {
    report = await runSoak(testStack(), {
      minutes: 1,
      warmupMs: 20_000,
      sampleEveryMs: 1000,
      faultEveryMs: 20_000,
      downMs: 2500,
      rateRound: { stock: 150, requests: 300, warmupRequests: 30, connections: 16 },
    });
  });

  afterAll(() => healAll(testStack()));

  it('runs every strategy in turn at half the rate the bench measured for it', () => {
    expect(report.phases.map((p) => p.strategy)).toEqual(SOAK_STRATEGIES);
    for (const p of report.phases) {
      expect(p.measuredPerSec).toBeGreaterThan(0);
      expect(p.loadPerSec).toBeCloseTo(p.measuredPerSec / 2, 5);
    }
  });

  it('injects the faults in turn and breaks no invariant', () => {
    expect(report.faults.length).toBeGreaterThanOrEqual(2);
    // In turn, starting over once all have come by (a slow machine stretches the minute past a third).
    expect(report.faults.map((f) => f.name)).toEqual(report.faults.map((_, i) => FAULT_NAMES[i % FAULT_NAMES.length]));
    expect(report.phases.flatMap((p) => p.breaks.map((b) => `${p.strategy}: ${b}`))).toEqual([]);
  });

  it('samples memory and event-loop lag of every replica all along, and reports them with the faults marked', () => {
    const replicas = new Set(report.samples.map((s) => s.replica));
    expect([...replicas].sort()).toEqual(
      testStack()
        .replicas.map((r) => r.id)
        .sort(),
    );
    expect(report.samples.length).toBeGreaterThan(100);
    const verdict = soakVerdict(report);
    expect(verdict.lines.at(-1)).toMatch(/^passed: zero invariant breaks/);
    const html = renderSoakHtml(report);
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).toContain('replica-kill');
    expect(html).not.toMatch(/<script|<link|\ssrc=|\shref=/i);
  });
});
