import { askRedis } from '../tools/stack/redis/redis-admin';

/** Commands each cluster master has served so far (INFO commandstats, every command summed), by URL. */
export async function commandsPerMaster(nodeUrls: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  await Promise.all(
    nodeUrls.map(async (url) => {
      const [role, stats] = await askRedis(Number(new URL(url).port), (r) =>
        Promise.all([r.role(), r.info('commandstats')]),
      ).catch(() => [['down'], ''] as const);
      if (role[0] !== 'master') return;
      counts[url] = [...stats.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    }),
  );
  return counts;
}

/** What each master served between two readings (a master only in `after` counts from zero). */
export function commandsBetween(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([url, calls]) => [url, calls - (before[url] ?? 0)]));
}
