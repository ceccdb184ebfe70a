import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { asCluster, connectRedis } from '@app/lock';
import { AppConfig } from '../config/app-config';

/**
 * The app's own Redis connection, for health checks, the redis-lua stock, redis-stream's orders
 * and clearing a coupon's keys on reset; a Cluster client when the config names cluster nodes. It fails fast while Redis
 * is down (no offline queue) and reconnects by itself.
 */
@Injectable()
export class AppRedis implements OnApplicationShutdown {
  readonly client: Redis;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.client = connectRedis(config.redis, {
      connectionName: `${config.replicaId}:app`,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 1000,
      commandTimeout: 2000,
      retryStrategy: (times) => Math.min(times * 100, 1000),
    });
    this.client.on('error', () => undefined); // reconnects; health reports the outage
  }

  /** Up when Redis answers; a cluster, only while it serves every slot (not during a failover). */
  async ping(): Promise<boolean> {
    if (!asCluster(this.client)) return (await this.client.ping()) === 'PONG';
    return /cluster_state:ok/.test(await this.client.cluster('INFO'));
  }

  /**
   * Deletes every key matching one of `patterns` (SCAN, never KEYS). Returns how many. A cluster's
   * keys are deleted one by one, as a multi-key UNLINK across slots is refused (CROSSSLOT).
   */
  async deleteMatching(patterns: string[]): Promise<number> {
    const cluster = asCluster(this.client);
    let deleted = 0;
    for (const match of patterns) {
      await this.scan(match, async (node, keys) => {
        if (cluster) for (const key of keys) deleted += await node.unlink(key);
        else if (keys.length) deleted += await node.unlink(...keys);
      });
    }
    return deleted;
  }

  /** Every key matching `pattern`, of `type` when given (SCAN). */
  async keysMatching(pattern: string, type?: string): Promise<string[]> {
    const found: string[] = [];
    await this.scan(
      pattern,
      (_node, keys) => {
        found.push(...keys);
        return Promise.resolve();
      },
      type,
    );
    return found;
  }

  /** SCAN, master by master on a cluster (SCAN sees one node's keys). */
  private async scan(
    match: string,
    onKeys: (node: Redis, keys: string[]) => Promise<void>,
    type?: string,
  ): Promise<void> {
    const cluster = asCluster(this.client);
    for (const node of cluster ? cluster.nodes('master') : [this.client]) {
      let cursor = '0';
      do {
        const [next, keys] = type
          ? await node.scan(cursor, 'MATCH', match, 'COUNT', 500, 'TYPE', type)
          : await node.scan(cursor, 'MATCH', match, 'COUNT', 500);
        await onKeys(node, keys);
        cursor = next;
      } while (cursor !== '0');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
