import { ApiClient } from '@app/contract';
import { measureCeilings } from './ceilings/measure-ceilings';
import { lessonsOf } from './lessons';
import { withBounds } from './metrics/bound';
import { machineInfo, methodText } from './machine';
import { ProgressLine } from './progress';
import { ceilingsLine } from './report/columns';
import { measureSellOut } from './sell-out/sell-out-round';
import { runStrategy } from './strategy-round';
import type { BenchTarget } from './target';
import type { BenchReport, BenchSettings, Ceilings, LoadResult } from './types';
import { warmUpStack } from './warm-up';

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
 * A ceiling is an upper bound, measured before the strategies and after them: the higher reading
 * counts, since a cold or disturbed reading would flatter the strategies held to it.
 */
export function higherOf(a: Ceilings, b: Ceilings): Ceilings {
  return {
    httpPerSec: Math.max(a.httpPerSec, b.httpPerSec),
    pgHotRowPerSec: Math.max(a.pgHotRowPerSec, b.pgHotRowPerSec),
    redisPerSec: Math.max(a.redisPerSec, b.redisPerSec),
    method: `Measured before the strategies and after them; the higher reading of each counts. ${a.method}`,
  };
}

/**
 * The whole comparison: the ceilings, then every strategy under each load, then the sell-out
 * race, and what the run teaches. Everything in one run, so every figure can be read against the others.
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
  await warmUpStack(api, target, settings, strategies, runId, progress);
  // Twice the load's requests: a rate read over a second or so is steadier than over a fraction of one.
  const ceilingSpec = {
    requests: settings.requests * 2,
    warmup: settings.warmupRequests,
    connections: settings.connections,
  };
  const before = await measureCeilings(api, target, { ...ceilingSpec, runId: `${runId}-before` });
  progress.done(`before: ${ceilingsLine(before)}`);
  const loads: LoadResult[] = [];
  for (const workMs of settings.loads) {
    const results = [];
    for (const [index, strategy] of strategies.entries()) {
      const label = `[workMs ${workMs}] [${index + 1}/${strategies.length}] ${strategy}`;
      const userPrefix = `${runId}-w${workMs}-${index}`;
      results.push(await runStrategy(api, target, { strategy, workMs, settings, userPrefix, label }, progress));
    }
    loads.push({ workMs, results });
  }
  const after = await measureCeilings(api, target, { ...ceilingSpec, runId: `${runId}-after` });
  progress.done(`after: ${ceilingsLine(after)}`);
  const ceilings = higherOf(before, after);
  const sellOut =
    settings.sellOutRuns > 0 && strategies.includes('segmented') && strategies.includes('owner-checked')
      ? await measureSellOut(api, target.databaseUrl, runId, settings.sellOutRuns, (l) => progress.done(l))
      : undefined;
  const run = {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: machineInfo(),
    settings: { ...settings, strategies },
    method: methodText(settings, target.replicaUrls.length),
    target: { nginxUrl: target.nginxUrl, replicas: target.replicaUrls.length },
    ceilings,
    loads: loads.map((l) => ({ ...l, results: l.results.map((r) => withBounds(r, ceilings)) })),
    ...(sellOut && { sellOut }),
  };
  return { ...run, lessons: lessonsOf(run) };
}
