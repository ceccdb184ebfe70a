import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { asCluster, connectRedis } from '@app/lock';
import { AppConfig } from '../config/app-config';

/**
 * The app's own Redis connection, for health checks, the redis-lua stock and clearing a coupon's
 * keys on reset; a Cluster client when the config names cluster nodes. It fails fast while Redis
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

  async ping(): Promise<boolean> {
    return (await this.client.ping()) === 'PONG';
  }

  /**
   * Deletes every key matching one of `patterns` (SCAN, never KEYS). Returns how many. A cluster
   * is scanned master by master (SCAN sees one node's keys) and its keys deleted one by one, as
   * a multi-key UNLINK across slots is refused (CROSSSLOT).
   */
  async deleteMatching(patterns: string[]): Promise<number> {
    const cluster = asCluster(this.client);
    const nodes = cluster ? cluster.nodes('master') : [this.client];
    let deleted = 0;
    for (const node of nodes) {
      for (const match of patterns) {
        let cursor = '0';
        do {
          const [next, keys] = await node.scan(cursor, 'MATCH', match, 'COUNT', 500);
          if (cluster) for (const key of keys) deleted += await node.unlink(key);
          else if (keys.length) deleted += await node.unlink(...keys);
          cursor = next;
        } while (cursor !== '0');
      }
    }
    return deleted;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
