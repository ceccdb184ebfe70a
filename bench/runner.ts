import { ApiClient } from '@app/contract';
import { measureCeilings } from './ceilings';
import { lessonsOf } from './lessons';
import { withBounds } from './scenarios';
import { machineInfo } from './machine';
import { methodText } from './options';
import { ProgressLine } from '../tools/report/progress-line';
import { ceilingsLine } from './report/columns';
import { measureSellOut } from './sell-out/sell-out-round';
import { measureSlowDb, SLOW_DB_STRATEGIES } from './slow-db/slow-db-round';
import { runStrategy } from './strategy-round';
import type { BenchTarget } from './target';
import type { BenchReport, BenchSettings, LoadResult } from './types';

/** Strategies to run: the requested ones in the order asked, or all the API lists. */
export async function resolveStrategies(api: Pick<ApiClient, 'strategies'>, requested: readonly string[]) {
  const listed = (await api.strategies()).map((s) => s.name);
  const unknown = requested.filter((name) => !listed.includes(name));
  if (unknown.length > 0)
    throw new Error(`unknown strategies: ${unknown.join(', ')} (the API lists: ${listed.join(', ')})`);
  return requested.length > 0 ? [...requested] : listed;
}

/** The whole comparison and its lessons, in one run so every figure can be read against the others. */
export async function runBench(target: BenchTarget, settings: BenchSettings): Promise<BenchReport> {
  const progress = new ProgressLine();
  const api = new ApiClient({ baseUrl: target.nginxUrl, adminToken: target.adminToken, timeoutMs: 60_000 });
  const strategies = await resolveStrategies(api, settings.strategies);
  const startedAt = new Date().toISOString();
  const runId = Date.now().toString(36);
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
  // After the loads, on a stack every path has warmed up.
  const ceilings = await measureCeilings(api, target, settings, runId);
  progress.done(ceilingsLine(ceilings));
  const sellOut =
    settings.sellOutRuns > 0 && strategies.includes('segmented') && strategies.includes('owner-checked')
      ? await measureSellOut(api, target.databaseUrl, runId, settings.sellOutRuns, (l) => progress.done(l))
      : undefined;
  const slowDb = SLOW_DB_STRATEGIES.every((s) => strategies.includes(s))
    ? await measureSlowDb(api, target, runId)
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
    ...(slowDb && { slowDb }),
  };
  return { ...run, lessons: lessonsOf(run) };
}
