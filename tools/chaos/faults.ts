import { couponLockResource } from '@app/contract';
import { lockKeys } from '@app/lock';
import { control, type StackInfo } from '../stack/stack';

export type FaultName = 'replica-kill' | 'redis-restart' | 'postgres-restart';

/** One fault the stack's control endpoint can inject and heal. */
export interface Fault {
  readonly name: FaultName;
  readonly description: string;
  /** True when the fault kills a replica: requests in flight on it may die with it. */
  readonly killsReplica: boolean;
  /**
   * Puts the fault in place; resolves once it is (the replica is dead, the server stopped). On a
   * Redis Cluster the Redis stopped is the master of the coupon's lock.
   */
  inject(info: StackInfo, couponId?: number): Promise<void>;
  /** Brings the dependency back; resolves once it runs again. */
  heal(info: StackInfo): Promise<void>;
}

/** The replica killed by `replica-kill`: the middle one, so nginx has one on each side. */
export const victim = (info: StackInfo) => info.replicas[Math.min(1, info.replicas.length - 1)].id;

export const FAULTS: Readonly<Record<FaultName, Fault>> = {
  'replica-kill': {
    name: 'replica-kill',
    description: 'kill -9 of one replica; the stack restarts it',
    killsReplica: true,
    // wait=0: answer once the process is dead, not once its successor is healthy.
    inject: async (info) => {
      await control(info, `/replicas/${victim(info)}/kill?wait=0`);
    },
    heal: () => Promise.resolve(),
  },
  'redis-restart': {
    name: 'redis-restart',
    description:
      'the lock Redis stopped (with Sentinel or a cluster: its primary, failed over), then started again with what its append-only file kept (REDIS_APPENDFSYNC=off, Sentinel, cluster: empty)',
    killsReplica: false,
    inject: async (info, couponId) => {
      const key =
        couponId === undefined ? '' : `?key=${encodeURIComponent(lockKeys(couponLockResource(couponId)).lock)}`;
      await control(info, `/redis/stop${key}`);
    },
    heal: async (info) => {
      await control(info, '/redis/start');
    },
  },
  'postgres-restart': {
    name: 'postgres-restart',
    description: 'PostgreSQL stopped (fast shutdown), then started again',
    killsReplica: false,
    inject: async (info) => {
      await control(info, '/postgres/stop');
    },
    heal: async (info) => {
      await control(info, '/postgres/start');
    },
  },
};

export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** Brings every dependency back whatever state a failed run left (both starts are idempotent). */
export async function healAll(info: StackInfo): Promise<void> {
  await control(info, '/redis/start');
  await control(info, '/postgres/start');
}
