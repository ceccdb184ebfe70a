import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';

/**
 * The app's own Redis connection, for health checks and clearing a coupon's keys on reset. It
 * fails fast while Redis is down (no offline queue) and reconnects by itself.
 */
@Injectable()
export class AppRedis implements OnApplicationShutdown {
  readonly client: Redis;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.client = new Redis(config.redisUrl, {
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

  /** Deletes every key matching one of `patterns` (SCAN, never KEYS). Returns how many. */
  async deleteMatching(patterns: string[]): Promise<number> {
    let deleted = 0;
    for (const match of patterns) {
      let cursor = '0';
      do {
        const [next, keys] = await this.client.scan(cursor, 'MATCH', match, 'COUNT', 500);
        if (keys.length) deleted += await this.client.unlink(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
    return deleted;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
