import type { StackInfo } from '../tools/stack/stack';
import type { BenchTarget } from './runner';

/** The bench's view of a stack: nginx for the load, each replica for its lock events. */
export function targetOf(info: Pick<StackInfo, 'nginxUrl' | 'replicas' | 'adminToken'>): BenchTarget {
  return { nginxUrl: info.nginxUrl, replicaUrls: info.replicas.map((r) => r.url), adminToken: info.adminToken };
}
