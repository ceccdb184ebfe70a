import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { RedisNodes, redisUrl } from './redis-nodes';
import type { RedisEndpoints, RedisStartOptions, RedisTopology } from './redis-topology';

/**
 * One redis-server: a stop is an outage. Without an append-only file a start comes back empty;
 * with one (REDIS_APPENDFSYNC) it comes back with what the file held, which after a SIGKILL
 * depends on the fsync policy.
 */
export class SingleRedis implements RedisTopology {
  private readonly nodes: RedisNodes;
  private readonly aofDir: string;

  constructor(
    private readonly port: number,
    dir: string,
    onExit: (name: string, how: number | NodeJS.Signals) => void,
    args: string[] = [],
  ) {
    this.nodes = new RedisNodes(dir, () => args, onExit);
    this.aofDir = join(dir, String(port), 'appendonlydir');
  }

  /** A new stack starts empty: an append-only file left by an earlier stack is not replayed. */
  start = () => {
    this.forgetFile();
    return this.nodes.start(this.port);
  };
  endpoints = (): RedisEndpoints => ({ redisUrl: redisUrl(this.port) });
  replicaEnv = () => ({ REDIS_URL: redisUrl(this.port) });
  pids = () => ({ [String(this.port)]: this.nodes.pid(this.port) });
  stopPrimary = async (_key?: string, signal?: NodeJS.Signals) => {
    await this.nodes.stopOne(this.port, signal);
    return { stopped: redisUrl(this.port) };
  };
  startAgain = ({ empty = false }: RedisStartOptions = {}) => {
    if (empty) this.forgetFile();
    return this.nodes.startStopped();
  };
  stop = () => this.nodes.stopAll();

  private forgetFile() {
    rmSync(this.aofDir, { recursive: true, force: true });
  }
}
