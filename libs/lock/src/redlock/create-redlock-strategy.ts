import type { LockEventSink } from '../lock-events';
import type { LockStrategy } from '../lock-strategy';
import { HANDOFF_LIMIT } from '../lock-runtime-options';
import { Lines } from '../waiting/line';
import { createRedlockClient } from './redlock-client';
import type { RedlockNode } from './redlock-node';
import { DEFAULT_DRIFT_FACTOR } from './redlock-quorum';
import { RedlockStrategy } from './redlock.strategy';

export interface RedlockStrategyOptions {
  /** One URL per independent Redis node, e.g. five of them; a majority must agree. */
  readonly urls: readonly string[];
  readonly events: LockEventSink;
  /** Share of the lease allowed for clock drift between the nodes (default 0.01). */
  readonly driftFactor?: number;
  /** Window of the random pause after a first failed attempt; it doubles per attempt up to 500 ms (default 20). */
  readonly retryJitterMs?: number;
  /** Bound on each node's answer (default 200 ms): keep it far below the lease. */
  readonly perNodeTimeoutMs?: number;
  /** Consecutive hand-offs within a process before a release lets the others in; 0: none. */
  readonly handoffLimit?: number;
}

const defaults = Object.freeze({ driftFactor: DEFAULT_DRIFT_FACTOR, retryJitterMs: 20, perNodeTimeoutMs: 200 });

/** The `redlock` strategy with one fail-fast client per node; `close()` disconnects them all. */
export function createRedlockStrategy(options: RedlockStrategyOptions): LockStrategy & { close(): Promise<void> } {
  const driftFactor = options.driftFactor ?? defaults.driftFactor;
  const retryJitterMs = options.retryJitterMs ?? defaults.retryJitterMs;
  const perNodeTimeoutMs = options.perNodeTimeoutMs ?? defaults.perNodeTimeoutMs;
  if (options.urls.length === 0) throw new RangeError('redlock needs at least one Redis URL');
  if (!(driftFactor >= 0 && driftFactor < 0.5)) throw new RangeError(`driftFactor ${driftFactor} is not in [0, 0.5)`);
  if (!(retryJitterMs >= 0)) throw new RangeError(`retryJitterMs ${retryJitterMs} is negative`);
  if (!(perNodeTimeoutMs > 0)) throw new RangeError(`perNodeTimeoutMs ${perNodeTimeoutMs} is not positive`);

  const nodes: RedlockNode[] = options.urls.map((url) => {
    const client = createRedlockClient(url, { perNodeTimeoutMs, connectTimeoutMs: Math.max(perNodeTimeoutMs, 500) });
    return { label: `${client.options.host}:${client.options.port}`, client };
  });
  const lines = new Lines(options.handoffLimit ?? HANDOFF_LIMIT);
  const strategy = new RedlockStrategy(nodes, options.events, { driftFactor, retryJitterMs }, lines);
  return Object.assign(strategy, {
    async close(): Promise<void> {
      // quit() is refused at once by a node that is down; disconnect() then stops its reconnecting.
      await Promise.all(
        nodes.map(({ client }) =>
          client.quit().then(
            () => undefined,
            () => client.disconnect(),
          ),
        ),
      );
    },
  });
}
