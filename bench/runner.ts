import { ApiClient } from '@app/contract';
import { CeilingProbe } from './ceilings/measure-ceilings';
import { withBounds } from './metrics/bound';
import { ceilingsLine } from './report/columns';
import { machineInfo, methodText } from './machine';
import { ProgressLine } from './progress';
import { measureSellOut } from './sell-out/sell-out-round';
import { runStrategy } from './strategy-round';
import type { BenchTarget } from './target';
import type { BenchReport, BenchSettings, LoadResult, WorkProbe } from './types';
import { warmUpStack } from './warm-up';
import { probeWork } from './work-probe';

/** Strategies to run: the requested ones in the order asked, or all the API lists. */
export async function resolveStrategies(
  api: Pick<ApiClient, 'strategies'>,
  requested: readonly string[],
): Promise<string[]> {
  const listed = (await api.strategies()).map((s) => s.name);
  if (requested.length === 0) return listed;
  const unknown = requested.filter((name) => !listed.includes(name));
  if (unknown.length > 0) {
    throw new Error(`unknown strategies: ${unknown.join(', ')} (the API lists: ${listed.join(', ')})`);
  }
  return requested.slice();
}

/**
 * The whole comparison: the ceilings first, then every strategy under each load, then the work
 * probe. Everything in one run, so every figure can be read against the others as a ratio.
 */
export async function runBench(
  target: BenchTarget,
  settings: BenchSettings,
  progress = new ProgressLine(),
): Promise<BenchReport> {
  const api = new ApiClient({ baseUrl: target.nginxUrl, adminToken: target.adminToken, timeoutMs: 60_000 });
  const strategies = await resolveStrategies(api, settings.strategies);
  const startedAt = new Date().toISOString();
  const runId = Date.now().toString(36);
  // Twice the load's requests: a rate read over a second or so is steadier than over a fraction of one.
  const probe = new CeilingProbe(api, target, {
    requests: settings.requests * 2,
    warmup: settings.warmupRequests,
    connections: settings.connections,
    runId,
    workLoads: settings.loads.filter((workMs) => workMs > 0),
    sections: settings.quick ? 50 : 200,
  });
  const loads: LoadResult[] = [];
  try {
    await warmUpStack(api, target, settings, strategies, runId, progress);
    progress.done(`before: ${ceilingsLine(await probe.measure('before'))}`);
    for (const workMs of settings.loads) {
      const results = [];
      for (const [index, strategy] of strategies.entries()) {
        const label = `[workMs ${workMs}] [${index + 1}/${strategies.length}] ${strategy}`;
        const userPrefix = `${runId}-w${workMs}-${index}`;
        results.push(await runStrategy(api, target, { strategy, workMs, settings, userPrefix, label }, progress));
      }
      loads.push({ workMs, results });
    }
    progress.done(`after: ${ceilingsLine(await probe.measure('after'))}`);
  } finally {
    await probe.close();
  }
  const ceilings = probe.result();
  const workProbes: WorkProbe[] = [];
  if (settings.probeWorkMs > 0) {
    for (const strategy of strategies)
      workProbes.push(await probeWork(api, strategy, settings.probeWorkMs, settings.segments, runId));
    const failed = workProbes.filter((p) => !p.ok).map((p) => p.strategy);
    progress.done(
      `work probe (workMs ${settings.probeWorkMs}): ${failed.length ? `too fast or not granted: ${failed.join(', ')}` : 'every strategy spent it'}`,
    );
  }
  // The sell-out race needs both contenders; three runs each in a full run, one in a quick one.
  const sellOut =
    strategies.includes('segmented') && strategies.includes('owner-checked')
      ? await measureSellOut(api, target.databaseUrl, runId, settings.quick ? 1 : 3, (l) => progress.done(l))
      : undefined;
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: machineInfo(),
    settings: { ...settings, strategies },
    method: methodText(settings, target.replicaUrls.length),
    target: { nginxUrl: target.nginxUrl, replicas: target.replicaUrls.length },
    ceilings,
    loads: loads.map((l) => ({ ...l, results: l.results.map((r) => withBounds(r, ceilings)) })),
    workProbes,
    ...(sellOut && { sellOut }),
  };
}
