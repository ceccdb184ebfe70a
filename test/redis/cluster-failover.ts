import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { asCluster, masterFor } from '../../libs/lock/src/redis/redis-target';
import { probeClient } from './lock-kit';

/** A client of the replica of `key`'s master on the test cluster, which the caller closes. */
export async function replicaOfMaster(probe: Redis, key: string): Promise<Redis> {
  const oldMaster = await masterFor(asCluster(probe)!, key);
  const id = await oldMaster.cluster('MYID');
  let replicas: string[] = [];
  while (replicas.length === 0) {
    replicas = (await oldMaster.call('CLUSTER', 'REPLICAS', id)) as string[]; // a new cluster may not list it yet
    if (replicas.length === 0) await sleep(20);
  }
  return probeClient(`redis://127.0.0.1:${/:(\d+)@/.exec(replicas[0])![1]}`);
}

/**
 * Promotes the replica of `key`'s master without its master's consent (CLUSTER FAILOVER FORCE);
 * returns a client of the new master, which the caller closes.
 */
export async function failOver(probe: Redis, key: string): Promise<Redis> {
  const promoted = await replicaOfMaster(probe, key);
  // FORCE skips the handshake with the old master, which here sometimes ran past Redis's own
  // 5 s limit on a manual failover and gave up; the election is asked for again if one is lost.
  for (let asked = 0; (await promoted.role())[0] !== 'master'; asked++) {
    if (asked % 100 === 0) await promoted.call('CLUSTER', 'FAILOVER', 'FORCE');
    await sleep(20);
  }
  return promoted;
}
