import { ApiClient } from '@app/contract';
import { runStrategy } from '../../bench/strategy-round';
import { ProgressLine } from '../report/progress-line';
import { targetOf } from '../../bench/target';
import type { BenchSettings } from '../../bench/types';
import { startLoad, type RequestRecord } from '../chaos/load-driver';
import { judge, label } from '../chaos/outcome';
import { resolveByRetry } from '../chaos/resolve-by-retry';
import { undersold } from '../chaos/invariants';
import type { StackInfo } from '../stack/stack';
import { startFaultClock, type FaultEvent } from './fault-clock';
import { sampleReplicas, type ReplicaSample } from './replica-samples';

export const SOAK_STRATEGIES = ['watchdog', 'fenced', 'db-atomic', 'redis-lua'];

export interface SoakOptions {
  readonly minutes: number;
  readonly warmupMs: number;
  readonly sampleEveryMs: number;
  readonly faultEveryMs: number;
  readonly downMs: number;
  /** The bench round each strategy's rate is measured with. */
  readonly rateRound: Pick<BenchSettings, 'stock' | 'requests' | 'warmupRequests' | 'connections'>;
}

/** One strategy's turn: its measured rate, the load at half of it, and what the database says. */
export interface SoakPhase {
  readonly strategy: string;
  readonly measuredPerSec: number;
  readonly loadPerSec: number;
  readonly couponId: number;
  readonly fromMs: number;
  readonly toMs: number;
  readonly requests: number;
  readonly statuses: Record<string, number>;
  readonly breaks: string[];
}

export interface SoakReport {
  readonly startedAt: string;
  readonly options: SoakOptions;
  readonly phases: SoakPhase[];
  readonly faults: FaultEvent[];
  readonly samples: ReplicaSample[];
}

/**
 * Steady load with periodic faults: each strategy's rate is measured by the bench's own round,
 * then each runs in turn at half that rate while a fault fires every minute, and every replica's
 * memory and event-loop lag are sampled throughout. The invariants are checked from the database.
 */
export async function runSoak(
  info: StackInfo,
  options: SoakOptions,
  progress = new ProgressLine(),
): Promise<SoakReport> {
  const api = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken, timeoutMs: 10_000 });
  const runId = Date.now().toString(36);
  const rates = new Map<string, number>();
  const settings: BenchSettings = {
    ...options.rateRound,
    strategies: [],
    loads: [0],
    segments: 8,
    sellOutRuns: 0,
  };
  for (const strategy of SOAK_STRATEGIES) {
    const run = {
      strategy,
      workMs: 0,
      settings,
      userPrefix: `soak-${runId}-rate-${strategy}`,
      label: `rate of ${strategy}`,
    };
    rates.set(strategy, (await runStrategy(api, targetOf(info), run, progress)).grabsPerSec);
  }
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const sampler = sampleReplicas(info.replicas, now, options.sampleEveryMs);
  const clock = startFaultClock(info, now, options.faultEveryMs, options.downMs);
  const phaseMs = (options.minutes * 60_000) / SOAK_STRATEGIES.length;
  const phases: Array<Omit<SoakPhase, 'breaks' | 'statuses'> & { records: RequestRecord[] }> = [];
  try {
    for (const strategy of SOAK_STRATEGIES) {
      const loadPerSec = Math.max(1, rates.get(strategy)! / 2);
      const requests = Math.ceil((loadPerSec * phaseMs) / 1000);
      const coupon = await api.createCoupon({ name: `soak ${strategy} ${runId}`, stock: requests });
      progress.done(
        `soak: ${strategy} at ${loadPerSec.toFixed(0)}/s (half of ${rates.get(strategy)!.toFixed(0)}) for ${(phaseMs / 1000).toFixed(0)} s`,
      );
      const fromMs = now();
      const load = startLoad({
        client: api,
        couponId: coupon.id,
        grab: { strategy, leaseMs: 3000, waitMs: 5000 },
        requests,
        concurrency: 50,
        ratePerSec: loadPerSec,
        userPrefix: `soak-${coupon.id}`,
      });
      const records = await load.done;
      phases.push({
        strategy,
        measuredPerSec: rates.get(strategy)!,
        loadPerSec,
        couponId: coupon.id,
        fromMs,
        toMs: now(),
        requests,
        records,
      });
    }
  } finally {
    await clock.stop();
  }
  const samples = await sampler.stop();
  // The last fault may have healed just now: judge once every replica answers its health check again.
  await untilAllHealthy(info);
  const judged = [];
  for (const phase of phases) judged.push(await judgePhase(api, phase, clock.events));
  return { startedAt, options, phases: judged, faults: clock.events, samples };
}

async function untilAllHealthy(info: StackInfo, timeoutMs = 60_000): Promise<void> {
  const replicas = info.replicas.map((r) => new ApiClient({ baseUrl: r.url }));
  const giveUpAt = Date.now() + timeoutMs;
  while (!(await Promise.all(replicas.map((r) => r.healthy()))).every(Boolean) && Date.now() < giveUpAt)
    await new Promise((resolve) => setTimeout(resolve, 200));
}

/** The phase's invariants from the database, once the buyers left unsure have asked. */
async function judgePhase(
  api: ApiClient,
  phase: Omit<SoakPhase, 'breaks' | 'statuses'> & { records: RequestRecord[] },
  faults: readonly FaultEvent[],
): Promise<SoakPhase> {
  const { records, ...rest } = phase;
  const kills = faults.filter((f) => f.killed);
  const diedWith = (r: RequestRecord) => (upstream: string | undefined) =>
    kills.some(
      (k) =>
        k.killed === upstream &&
        r.sentAtMs + phase.fromMs <= k.healedAtMs + 1000 &&
        r.endedAtMs + phase.fromMs >= k.atMs,
    );
  const verdicts = records.map((r) => judge(r.outcome, diedWith(r)));
  const resolved = await resolveByRetry(api, phase.couponId, { strategy: phase.strategy }, records, verdicts);
  const audit = await api.audit(phase.couponId);
  const acknowledged = records.filter((_, i) => verdicts[i] === 'granted').length;
  const statuses: Record<string, number> = {};
  for (const r of records) statuses[label(r.outcome)] = (statuses[label(r.outcome)] ?? 0) + 1;
  const breaks = [
    audit.oversold > 0 && `oversold ${audit.oversold}`,
    audit.lostUpdates !== 0 && `lost updates ${audit.lostUpdates}`,
    audit.stock + audit.grants !== audit.initialStock &&
      `stock ${audit.stock} + grants ${audit.grants} ≠ ${audit.initialStock}`,
    audit.grants !== acknowledged + resolved.storedUsers.length &&
      `grants ${audit.grants} ≠ ${acknowledged} acknowledged + ${resolved.storedUsers.length} resolved`,
    undersold(statuses['409 STOCK.SOLD_OUT'] ?? 0, audit) &&
      `UNDERSOLD: ${statuses['409 STOCK.SOLD_OUT']} sold-out answers with stock ${audit.stock} left`,
    verdicts.includes('unclear') && `${verdicts.filter((v) => v === 'unclear').length} answers outside the contract`,
  ].filter((b): b is string => typeof b === 'string');
  return { ...rest, statuses, breaks };
}
