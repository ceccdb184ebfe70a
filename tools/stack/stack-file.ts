import { readFile, rm, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { RedisAppendFsync } from './config';
import type { RedisMode } from './redis/redis-topology';

/** `.stack/stack.json`: the contract's fields first, then the stack's own. */
export interface StackInfo {
  nginxUrl: string;
  replicas: Array<{ id: string; url: string; pid: number }>;
  databaseUrl: string;
  redisUrl: string;
  /** REDIS_MODE: single, sentinel or cluster. */
  redisMode: RedisMode;
  /** Sentinel mode: every Sentinel, and the name they monitor the primary under. */
  redisSentinelUrls?: string[];
  redisSentinelName?: string;
  /** Cluster mode: every node. */
  redisClusterUrls?: string[];
  /** REDIS_APPENDFSYNC of a single Redis (`off`: no append-only file, a restart comes back empty). */
  redisAppendFsync?: RedisAppendFsync;
  adminToken: string;
  chaos: boolean;
  /** Each replica's PostgreSQL pool. */
  databasePoolSize: number;
  /** The supervisor's control endpoint (GET /state, POST /replicas/:id/kill, …). */
  controlUrl: string;
  /** The lab page through nginx (absent when the lab server is not built). */
  labUrl?: string;
  redlockUrls: string[];
  dir: string;
  supervisorPid: number;
  ports: {
    nginx: number;
    api: number[];
    postgres: number;
    redis: number;
    redlock: number[];
    control: number;
    lab: number;
  };
  pids: {
    postgres?: number;
    /** Every Redis node (and Sentinel) of the mode, by port. */
    redis: Record<string, number | undefined>;
    redlock: Array<number | undefined>;
    nginx?: number;
    lab?: number;
  };
}

export const stackFile = (dir: string) => join(dir, 'stack.json');
export const pidFile = (dir: string) => join(dir, 'supervisor.pid');
export const logFile = (dir: string) => join(dir, 'stack.log');

export async function readStackFile(dir: string): Promise<StackInfo | undefined> {
  try {
    return JSON.parse(await readFile(stackFile(dir), 'utf8')) as StackInfo;
  } catch {
    return undefined;
  }
}

/** Written whole then renamed, so a reader never sees half a file. */
export async function writeStackFile(info: StackInfo): Promise<void> {
  const tmp = `${stackFile(info.dir)}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(info, null, 2)}\n`);
  await rename(tmp, stackFile(info.dir));
}

export async function removeStackFile(dir: string): Promise<void> {
  await rm(stackFile(dir), { force: true });
}
