import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient } from '@app/contract';

export interface HealthSample {
  /** ms on the same clock as the caller's `now`. */
  readonly atMs: number;
  /** replica id → HTTP status of GET /health, or 0 when it did not answer. */
  readonly statuses: Readonly<Record<string, number>>;
}

export interface HealthWatch {
  /** The newest sample, if any. */
  latest(): HealthSample | undefined;
  /** Every sample so far. */
  samples(): readonly HealthSample[];
  /** Stops polling and returns every sample taken. */
  stop(): Promise<HealthSample[]>;
}

const healthStatus = (url: string, timeoutMs: number) => new ApiClient({ baseUrl: url }).healthStatus(timeoutMs);

/** Polls every replica's /health directly (not through nginx, which would hide one bad replica). */
export function watchHealth(
  replicas: ReadonlyArray<{ id: string; url: string }>,
  now: () => number,
  everyMs = 100,
): HealthWatch {
  const samples: HealthSample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const atMs = now();
      const statuses = await Promise.all(replicas.map((r) => healthStatus(r.url, 1000)));
      samples.push({ atMs, statuses: Object.fromEntries(replicas.map((r, i) => [r.id, statuses[i]])) });
      await sleep(everyMs);
    }
  })();
  return {
    latest: () => samples.at(-1),
    samples: () => samples,
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

export interface Recovery {
  /** Some replica's health was not 200 after the fault was injected. */
  readonly sawUnhealthy: boolean;
  /** Some replica answered 503 after the fault was injected (alive, reporting a dependency down). */
  readonly saw503: boolean;
  /** ms from the fault's start until every replica answered 200 (and kept doing so); undefined if never. */
  readonly recoveryMs: number | undefined;
}

/** Reads the samples: did health go bad after `injectedAtMs`, and when was it all 200 again for good. */
export function recovery(samples: readonly HealthSample[], injectedAtMs: number): Recovery {
  const allUp = (s: HealthSample) => Object.values(s.statuses).every((status) => status === 200);
  const after = samples.filter((s) => s.atMs >= injectedAtMs);
  const sawUnhealthy = after.some((s) => !allUp(s));
  const saw503 = after.some((s) => Object.values(s.statuses).includes(503));
  let lastBad = -1;
  after.forEach((s, i) => {
    if (!allUp(s)) lastBad = i;
  });
  const firstGood = after[lastBad + 1];
  const recoveryMs = !sawUnhealthy ? 0 : firstGood ? firstGood.atMs - injectedAtMs : undefined;
  return { sawUnhealthy, saw503, recoveryMs };
}

/** Until the watch's newest sample says every replica is healthy, or `timeoutMs` has passed. */
export async function waitAllHealthy(watch: HealthWatch, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const last = watch.latest();
    if (last && Object.values(last.statuses).every((s) => s === 200)) return;
    await sleep(100);
  }
}
