import { DEFAULT_POOL_SIZE } from '../tools/stack/config';
import type { StackInfo } from '../tools/stack/stack';

/** Where the load goes, and what the ceilings measure against: the stack as stack.json describes it. */
export interface BenchTarget {
  readonly nginxUrl: string;
  readonly replicaUrls: readonly string[];
  readonly adminToken: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  /** The replicas' PostgreSQL pools together. */
  readonly databasePoolTotal: number;
}

type StackFields = Pick<StackInfo, 'nginxUrl' | 'replicas' | 'adminToken' | 'databaseUrl' | 'redisUrl'> &
  Partial<Pick<StackInfo, 'databasePoolSize'>>;

export function targetOf(info: StackFields): BenchTarget {
  return {
    nginxUrl: info.nginxUrl,
    replicaUrls: info.replicas.map((r) => r.url),
    adminToken: info.adminToken,
    databaseUrl: info.databaseUrl,
    redisUrl: info.redisUrl,
    databasePoolTotal: (info.databasePoolSize ?? DEFAULT_POOL_SIZE) * info.replicas.length,
  };
}
