import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultName, GrabOptions } from '@app/contract';
import { lockKey, type KeyState } from '../../../../walkthrough/lock-keys';
import type { LoadRun } from '../load/load-run';

/** Reads a lock key as Redis has it. */
export interface KeyReader {
  peek(key: string): Promise<KeyState>;
}

const POLL_MS = 10;
const LOOK_FOR_MS = 30_000;

/** What to say about a stalled holder's answer. */
const told = (status: number, code?: string) =>
  status === 0 ? `no answer (${code})` : `${status}${code ? ` ${code}` : ''}`;

/**
 * A stalled holder, then the witness that shows what its lock is worth, as the walkthrough sequences
 * it: on what Redis shows, never on timing. The stalled grab takes the lock with a short lease (no
 * buyer of the load has one so short, which is how its hold is told apart). Once that hold ends in
 * Redis (the lease ran out, or the holder let go) a second buyer is sent to another replica. If the
 * first still stalls then, the second walks in beside it; a watchdog that kept renewing makes it wait.
 */
export function stallWithWitness(
  load: LoadRun,
  keys: KeyReader,
  fault: FaultName,
  options: GrabOptions & { leaseMs: number },
  replica: string,
  witnessReplica: string,
): void {
  const stallMs = options.pauseMs ?? options.freezeMs;
  let answered = false;
  const first = load.faultGrab(fault, options, replica).then((a) => {
    answered = true;
    load.mark(fault, replica, `the stalled holder answered ${told(a.status, a.code)}`);
  });
  const key = lockKey(load.couponId!);
  const watch = async () => {
    const held = await waitFor(
      load,
      keys,
      key,
      (s) => s.exists && s.pttlMs > 0 && s.pttlMs <= options.leaseMs,
      () => answered,
    );
    if (!held) {
      await first;
      return load.mark(
        fault,
        'redis',
        `no lock key with a lease of ${options.leaseMs} ms or less was seen: this strategy keeps no such lock in Redis`,
      );
    }
    const heldAt = Date.now();
    load.mark(fault, 'redis', `the stalled holder has the lock (${held.pttlMs} ms of lease left)`);
    const ended = await waitFor(load, keys, key, (s) => !s.exists || s.holder !== held.holder);
    if (!ended) return;
    const heldMs = Date.now() - heldAt;
    // Seen within a poll of it happening: a hold that ended well before the stall did was not let go.
    const outlived = stallMs === undefined || heldMs < stallMs - 100;
    load.mark(
      fault,
      'redis',
      `its lock ended ${heldMs} ms later, ${outlived ? 'while it still stalls' : 'as it let go'}: a second buyer on ${witnessReplica}`,
    );
    const second = await load.faultGrab(`${fault}-second`, { waitMs: 30_000 }, witnessReplica);
    load.mark(fault, witnessReplica, `the second buyer answered ${told(second.status, second.code)}`);
  };
  load.track(watch());
}

/** Polls the key until `done`; undefined when the run ends, `giveUp` says so, or nothing was seen in time. */
async function waitFor(
  load: LoadRun,
  keys: KeyReader,
  key: string,
  done: (state: KeyState) => boolean,
  giveUp: () => boolean = () => false,
): Promise<KeyState | undefined> {
  const deadline = Date.now() + LOOK_FOR_MS;
  while (Date.now() < deadline && !load.cancelled && !giveUp()) {
    const state = await keys.peek(key).catch(() => undefined);
    if (state && done(state)) return state;
    await sleep(POLL_MS);
  }
  return undefined;
}
