import type { FaultName, GrabOptions, StepNeed } from '@app/contract';
import type { LoadRun } from '../load/load-run';
import { stallWithWitness, type KeyReader } from './second-holder';

/** What a fault may touch: the running load, the replica it is aimed at, Redis's lock keys, the control endpoint. */
export interface FaultTarget {
  readonly load: LoadRun;
  readonly replica: string;
  /** Another replica, where a second buyer is sent. */
  readonly otherReplica: string;
  readonly keys: KeyReader;
  control(path: string): Promise<unknown>;
}

export interface Fault {
  readonly name: FaultName;
  readonly label: string;
  readonly what: string;
  readonly uses: readonly StepNeed[];
  readonly targetsReplica: boolean;
  /** Starts the fault; resolves with what was done (its end shows in the load's stream). */
  inject(target: FaultTarget): Promise<string>;
}

// A lease far shorter than the stall: with a lease-based lock the next buyer walks in mid-stall.
const PAUSE = { pauseMs: 3000, leaseMs: 1000, waitMs: 30_000 };
const FREEZE = { freezeMs: 2000, leaseMs: 500, waitMs: 30_000 };
const CRASH = { crash: 'after-acquire' as const, leaseMs: 2000, waitMs: 30_000 };

function stalled(
  t: FaultTarget,
  name: FaultName,
  options: GrabOptions & { leaseMs: number },
  told: string,
): Promise<string> {
  t.load.mark(name, t.replica, told);
  stallWithWitness(t.load, t.keys, name, options, t.replica, t.otherReplica);
  return Promise.resolve(told);
}

/** A fault that stops `server` and starts it again through the control endpoint. */
function restartFault(server: 'redis' | 'postgres', title: string, what: string): Fault {
  const name = `restart-${server}` as const;
  return {
    name,
    label: `Restart ${title}`,
    what,
    uses: ['chaos', 'fault', 'control'],
    targetsReplica: false,
    async inject(t) {
      const work = (async () => {
        t.load.mark(name, server, `${server} stopped`);
        await t.control(`/${server}/stop`);
        // Redis comes back without its append-only file: the lesson is a Redis that forgot every lock.
        await t.control(server === 'redis' ? '/redis/start?empty=1' : `/${server}/start`);
        t.load.mark(name, server, `${server} started again`);
      })();
      t.load.track(work);
      await work;
      return `${title} was stopped and started again`;
    },
  };
}

/** Every fault the page offers, in the order it shows them. */
export const FAULTS: readonly Fault[] = [
  {
    name: 'pause-holder',
    label: 'Pause the holder',
    what: `one more buyer takes the lock with a ${PAUSE.leaseMs} ms lease and stalls ${PAUSE.pauseMs} ms inside it (a slow downstream call: timers, the watchdog too, still run); once Redis shows it holding, a second buyer on another replica waits for the lock`,
    uses: ['chaos', 'fault'],
    targetsReplica: true,
    inject: (t) =>
      stalled(
        t,
        'pause-holder',
        PAUSE,
        `a holder on ${t.replica} pauses ${PAUSE.pauseMs} ms with a ${PAUSE.leaseMs} ms lease`,
      ),
  },
  {
    name: 'freeze-replica',
    label: 'Freeze a replica',
    what: `one more buyer blocks its replica's event loop for ${FREEZE.freezeMs} ms while holding a ${FREEZE.leaseMs} ms lease (a stop-the-world pause: nothing runs, not even the watchdog); a second buyer on another replica waits for the lock`,
    uses: ['chaos', 'fault'],
    targetsReplica: true,
    inject: (t) =>
      stalled(
        t,
        'freeze-replica',
        FREEZE,
        `${t.replica} freezes ${FREEZE.freezeMs} ms holding a ${FREEZE.leaseMs} ms lease`,
      ),
  },
  {
    name: 'crash-replica',
    label: 'Crash it holding the lock',
    what: `one more buyer's replica is killed right after it acquired the lock (lease ${CRASH.leaseMs} ms): the lock is never released, and a second buyer waits until it expires (or forever, without a lease); the replica is restarted`,
    uses: ['chaos', 'fault'],
    targetsReplica: true,
    inject: (t) => stalled(t, 'crash-replica', CRASH, `${t.replica} dies right after acquiring the lock`),
  },
  {
    name: 'kill-replica',
    label: 'Kill a replica',
    what: 'SIGKILL to one replica, whatever it is doing; the stack restarts it',
    uses: ['chaos', 'fault', 'control'],
    targetsReplica: true,
    async inject(t) {
      t.load.mark('kill-replica', t.replica, `${t.replica} killed`);
      await t.control(`/replicas/${encodeURIComponent(t.replica)}/kill?wait=0`);
      return `${t.replica} was killed; the stack restarts it`;
    },
  },
  restartFault('redis', 'Redis', 'the lock Redis is stopped and started again, empty: every lock key is gone'),
  restartFault('postgres', 'PostgreSQL', 'PostgreSQL is shut down (fast) and started again on the same data'),
];
