/** One scrape of one replica's GET /metrics. */
export interface ReplicaSample {
  /** ms since the soak began. */
  readonly atMs: number;
  readonly replica: string;
  /** When the process started (s since the epoch): a restarted replica is a new process. */
  readonly startedAt: number;
  /** Resident set size, MiB. */
  readonly rssMb: number;
  /** V8 heap in use, MiB. */
  readonly heapMb: number;
  /** The event loop's p99 delay since the previous scrape, ms. */
  readonly lagP99Ms: number;
}

const VALUE = (text: string, name: string) => {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)$`, 'm').exec(text);
  return match ? Number(match[1]) : undefined;
};

/**
 * Reads the figures prom-client's default metrics expose (prom-client resets the event-loop
 * histogram at each scrape, so the p99 is the last interval's). Undefined when one is missing.
 */
export function parseSample(text: string, replica: string, atMs: number): ReplicaSample | undefined {
  const startedAt = VALUE(text, 'process_start_time_seconds');
  const rss = VALUE(text, 'process_resident_memory_bytes');
  const heap = VALUE(text, 'nodejs_heap_size_used_bytes');
  const lag = VALUE(text, 'nodejs_eventloop_lag_p99_seconds');
  if (startedAt === undefined || rss === undefined || heap === undefined || lag === undefined) return undefined;
  const mb = (bytes: number) => bytes / 2 ** 20;
  return { atMs, replica, startedAt, rssMb: mb(rss), heapMb: mb(heap), lagP99Ms: lag * 1000 };
}

/** Scrapes every replica every `everyMs` until stopped; a replica that does not answer is skipped. */
export function sampleReplicas(
  replicas: ReadonlyArray<{ id: string; url: string }>,
  now: () => number,
  everyMs: number,
): { stop(): Promise<ReplicaSample[]> } {
  const samples: ReplicaSample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const atMs = now();
      const scraped = await Promise.all(
        replicas.map(async (r) => {
          try {
            const res = await fetch(`${r.url}/metrics`, { signal: AbortSignal.timeout(2000) });
            return parseSample(await res.text(), r.id, atMs);
          } catch {
            return undefined;
          }
        }),
      );
      samples.push(...scraped.filter((s): s is ReplicaSample => s !== undefined));
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}
