import { RedisNodes, redisUrl } from './redis-nodes';
import type { RedisEndpoints, RedisTopology } from './redis-topology';

/** One redis-server: a stop is an outage, a start comes back empty (nothing is persisted). */
export class SingleRedis implements RedisTopology {
  private readonly nodes: RedisNodes;

  constructor(
    private readonly port: number,
    dir: string,
    onExit: (name: string, how: number | NodeJS.Signals) => void,
  ) {
    this.nodes = new RedisNodes(dir, () => [], onExit);
  }

  start = () => this.nodes.start(this.port);
  endpoints = (): RedisEndpoints => ({ redisUrl: redisUrl(this.port) });
  replicaEnv = () => ({ REDIS_URL: redisUrl(this.port) });
  pids = () => ({ [String(this.port)]: this.nodes.pid(this.port) });
  stopPrimary = async () => {
    await this.nodes.stopOne(this.port);
    return { stopped: redisUrl(this.port) };
  };
  startAgain = () => this.nodes.startStopped();
  stop = () => this.nodes.stopAll();
}
