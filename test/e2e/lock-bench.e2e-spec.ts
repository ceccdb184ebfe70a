import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { coresBusy } from '../../bench/locks/cpu-cost';
import { SECTIONS_PER_TURN } from '../../bench/locks/contenders';
import type { LockBenchReport } from '../../bench/locks/render';
import { testPort } from '../ports';

jest.setTimeout(120_000);

// The lock micro-bench as its users run it, in miniature: its own Redis, its worker processes, the
// four ceilings and two contenders for one short round; the figures themselves are the bench's business.
it('measures the ceilings and each contender in one run, and writes them to its JSON', async () => {
  const out = mkdtempSync(join(tmpdir(), 'lock-bench-'));
  try {
    const args = ['tsx', 'bench/locks/cli.ts', '--seconds', '1', '--settle', '1', '--rounds', '1', '--waiters', '5'];
    args.push('--contenders', 'owner-checked:no-local-handoff,redlock', '--port', String(testPort(26710)));
    await promisify(execFile)('npx', [...args, '--out', out], { cwd: join(__dirname, '../..') });
    const json = readdirSync(out).find((f) => f.endsWith('.json'))!;
    const report = JSON.parse(readFileSync(join(out, json), 'utf8')) as LockBenchReport;
    // One reading of each ceiling per round; the rings' own counter checks passed (measureTurns
    // throws otherwise), and they turned. How fast is the bench's business, not this spec's.
    expect(report.ceiling!.readings).toHaveLength(1);
    expect(report.turnCeiling!.readings).toHaveLength(1);
    expect(report.turnCeiling!.turnsPerSec).toBeGreaterThan(0);
    expect(report.handoffCeiling!.readings).toHaveLength(1);
    expect(report.handoffCeiling!.turnsPerSec).toBeGreaterThan(0);
    // The run ring runs as many sections per turn as ours grants in a row: one taken in Redis, then
    // the hand-offs (that the ring runs them is turn-ceiling.redis-spec's business).
    expect(report.runCeiling!.sectionsPerTurn).toBe(SECTIONS_PER_TURN);
    expect(report.runCeiling!.readings).toHaveLength(1);
    expect(report.runCeiling!.sectionPerSec).toBeGreaterThan(0);
    expect(report.results.map((r) => r.contender)).toEqual(['owner-checked:no-local-handoff', 'redlock']);
    expect(report.settings.settleSeconds).toBe(1);
    // Without local hand-off the queue serves the processes in turn: the lock stays in its process
    // only when no other process has a waiter queued at a release. Redlock's releasing waiter
    // retries at once while the others sleep out their retry delay: its process mostly wins again.
    expect(report.results[0].sameProcessShare).toBeLessThan(0.1);
    expect(report.results[1].sameProcessShare).toBeGreaterThan(report.results[0].sameProcessShare!);
    // Every figure of CPU was read (the workers', the bench's own client's and Redis's), in µs:
    // a rate at that cost keeps no more cores busy than the machine has.
    const rated = [
      { perSec: report.ceiling!.sectionPerSec, cost: report.ceiling!.cpuMicrosPerSection },
      { perSec: report.turnCeiling!.turnsPerSec, cost: report.turnCeiling!.cpuMicrosPerTurn },
      { perSec: report.handoffCeiling!.turnsPerSec, cost: report.handoffCeiling!.cpuMicrosPerTurn },
      { perSec: report.runCeiling!.sectionPerSec, cost: report.runCeiling!.cpuMicrosPerSection },
    ];
    for (const result of report.results) {
      expect(result.errors).toEqual([]);
      expect(result.counterMatches).toBe(true); // the window's counter and the settle's
      expect(result.grants).toBeGreaterThan(0);
      expect(result.settleGrants).toBeGreaterThan(0);
      expect(result.sameProcessShare).toBeGreaterThanOrEqual(0);
      expect(result.sameProcessShare).toBeLessThanOrEqual(1);
      rated.push({ perSec: result.grantsPerSec, cost: result.cpuMicrosPerGrant });
    }
    for (const { perSec, cost } of rated) {
      expect(cost).toBeDefined();
      expect(cost!.node).toBeGreaterThan(0);
      expect(cost!.redis).toBeGreaterThan(0);
      expect(coresBusy(perSec, cost!)).toBeLessThanOrEqual(report.machine.cpus * 1.1);
    }
    // The scheduler was read for every contender and every ring (Linux, as the stack needs): a
    // share of ready time, and preemptions per grant or section.
    const rings = [report.turnCeiling, report.handoffCeiling, report.runCeiling];
    const waits = [...report.results.map((r) => r.cpuWait), ...rings.map((ring) => ring!.cpuWait)];
    for (const wait of waits) {
      expect(wait!.share).toBeGreaterThanOrEqual(0);
      expect(wait!.share).toBeLessThan(1);
      expect(wait!.preemptionsPerGrant).toBeGreaterThanOrEqual(0);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
