import type { Audit } from '@app/contract';
import { check } from '../scenario';
import type { StepContext } from '../step';

/** What the async-orders step saw of a persister killed after its commit, before its XACK. */
export interface PersisterKill {
  /** 202s of the batch whose first order carried the crash. */
  readonly accepted: number;
  readonly audit: Audit;
  /** Replicas whose process started anew between before the batch and after the drain. */
  readonly restarted: readonly string[];
  /** From the batch's first grab sent to the stream empty, ms. */
  readonly drainedAfterMs: number;
  /** The persisters' reclaim idle time, ms. */
  readonly reclaimIdleMs: number;
}

/**
 * The killed persister's checks: that the kill happened (one replica came back as a new process),
 * that its batch waited for the reclaim (an order's idle time starts at its delivery, after the
 * batch was sent), and that another persister then granted every order once.
 */
export function persisterKillChecks(k: PersisterKill) {
  return [
    check(
      'killed persister: its replica restarted, and the batch waited the reclaim idle time',
      `${k.restarted.length ? k.restarted.join(', ') : 'no replica'} restarted; drained ${k.drainedAfterMs} ms after the batch was sent`,
      k.restarted.length === 1 && k.drainedAfterMs >= k.reclaimIdleMs,
      `1 replica restarted; drained ≥ ${k.reclaimIdleMs} ms after`,
    ),
    check(
      'killed persister: its batch persisted by another, none twice',
      `${k.audit.grants} grant(s) of ${k.accepted} accepted, oversold ${k.audit.oversold}`,
      k.audit.grants >= k.accepted && k.audit.grants === k.audit.initialStock - k.audit.stock && k.audit.oversold === 0,
      `${k.accepted} grant(s) or more (answers lost with the replica), stock and grants agree`,
    ),
  ];
}

/** Each replica's process start (GET /metrics, s since the epoch): a restarted replica is a new process. */
export async function processStarts(ctx: StepContext): Promise<Map<string, number | undefined>> {
  const starts = await Promise.all(
    ctx.api.replicas.map(async (r) => {
      const text = await fetch(`${ctx.api.replicaUrl(r.id)}/metrics`).then((res) => res.text());
      const match = /^process_start_time_seconds (\S+)$/m.exec(text);
      return [r.id, match ? Number(match[1]) : undefined] as const;
    }),
  );
  return new Map(starts);
}
