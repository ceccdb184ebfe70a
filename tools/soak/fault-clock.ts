import { setTimeout as sleep } from 'node:timers/promises';
import type { StackInfo } from '../stack/stack';
import { FAULT_NAMES, FAULTS, victim, type FaultName } from '../chaos/faults';

/** One fault the soak injected, on the soak's clock. */
export interface FaultEvent {
  readonly name: FaultName;
  readonly atMs: number;
  readonly healedAtMs: number;
  /** replica-kill: the killed replica's host:port (the one nginx's 502 names). */
  readonly killed?: string;
}

/**
 * A fault every `everyMs`, in rotation (replica kill, Redis restart, PostgreSQL restart), each
 * dependency down for `downMs`, until stopped; the last one is healed before `stop` resolves.
 */
export function startFaultClock(info: StackInfo, now: () => number, everyMs: number, downMs: number) {
  const events: FaultEvent[] = [];
  let running = true;
  let wake: () => void = () => undefined;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const due = (i + 1) * everyMs;
      await Promise.race([sleep(Math.max(0, due - now())), new Promise<void>((r) => (wake = r))]);
      if (!running) return;
      const fault = FAULTS[FAULT_NAMES[i % FAULT_NAMES.length]];
      const atMs = now();
      const killed = fault.killsReplica
        ? new URL(info.replicas.find((r) => r.id === victim(info))!.url).host
        : undefined;
      await fault.inject(info);
      if (!fault.killsReplica) await sleep(downMs);
      await fault.heal(info);
      events.push({ name: fault.name, atMs, healedAtMs: now(), ...(killed ? { killed } : {}) });
    }
  })();
  return {
    events,
    async stop(): Promise<FaultEvent[]> {
      running = false;
      wake();
      await loop;
      return events;
    },
  };
}
