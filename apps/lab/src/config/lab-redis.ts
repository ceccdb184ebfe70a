import type { Redis } from 'ioredis';
import { connectRedis } from '@app/lock';
import type { LabSettings } from './lab-settings';

/** A connection to the replicas' Redis (a Cluster client on a cluster), for reading lock keys. */
export function labRedis(settings: Pick<LabSettings, 'redis'>): Redis {
  return connectRedis(settings.redis, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
  });
}
