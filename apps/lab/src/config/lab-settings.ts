import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { envAdminToken, envBool, envInt } from '@app/apps-common';

/** One API replica the walkthrough steps may aim a grab at directly. */
export interface ReplicaAddress {
  readonly id: string;
  readonly url: string;
}

/** Everything the lab server reads from its environment, parsed and checked once at start. */
export interface LabSettings {
  readonly port: number;
  /** The API through nginx: every load and every step goes this way. */
  readonly apiUrl: string;
  readonly replicas: readonly ReplicaAddress[];
  /** The lock Redis: steps read lock keys to sequence themselves. */
  readonly redisUrl: string;
  readonly adminToken: string;
  readonly chaosEnabled: boolean;
  /** The local stack's control endpoint; absent under docker-compose. */
  readonly controlUrl?: string;
  /** Ports for servers a step starts itself; empty where the lab must not start servers. */
  readonly sparePorts: readonly number[];
  readonly scratchDir: string;
  /** The built page (index.html, app.js, app.css). */
  readonly pageDir: string;
  readonly logLevel: 'error' | 'warn' | 'log';
}
export const LabSettings = Symbol('LabSettings');

// dist/apps/lab/apps/lab/src/config → dist/apps/lab/page
const BUILT_PAGE = resolve(__dirname, '..', '..', '..', '..', 'page');
const SPARE_PORTS = 10;

function url(env: NodeJS.ProcessEnv, name: string, fallback?: string): string | undefined {
  const raw = env[name] || fallback;
  if (raw === undefined) return undefined;
  if (!/^(https?|redis):\/\/[^\s/]+/.test(raw)) throw new Error(`${name} must be a URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** `api-1=http://127.0.0.1:23001,api-2=…` */
export function parseReplicas(raw: string): ReplicaAddress[] {
  const replicas = raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const match = /^([A-Za-z0-9_.-]{1,64})=(https?:\/\/\S+)$/.exec(item);
      if (!match) throw new Error(`REPLICA_URLS: "${item}" is not NAME=http://HOST:PORT`);
      return { id: match[1], url: match[2].replace(/\/+$/, '') };
    });
  if (!replicas.length) throw new Error('REPLICA_URLS names no replica');
  if (new Set(replicas.map((r) => r.id)).size !== replicas.length) throw new Error('REPLICA_URLS repeats a name');
  return replicas;
}

export function loadLabSettings(env: NodeJS.ProcessEnv = process.env): LabSettings {
  const adminToken = envAdminToken(env);
  const spareBase = envInt(env, 'LAB_SPARE_PORT_BASE', 0, 1, 65535 - SPARE_PORTS);
  const logLevel = (env.LOG_LEVEL || 'log') as LabSettings['logLevel'];
  if (!['error', 'warn', 'log'].includes(logLevel)) throw new Error(`LOG_LEVEL "${logLevel}" is unknown`);
  return {
    port: envInt(env, 'PORT', 28090, 1, 65535),
    apiUrl: url(env, 'API_URL', 'http://127.0.0.1:28080')!,
    replicas: parseReplicas(
      env.REPLICA_URLS || 'api-1=http://127.0.0.1:23001,api-2=http://127.0.0.1:23002,api-3=http://127.0.0.1:23003',
    ),
    redisUrl: url(env, 'REDIS_URL', 'redis://127.0.0.1:26379')!,
    adminToken,
    chaosEnabled: envBool(env, 'CHAOS_ENABLED'),
    controlUrl: url(env, 'CONTROL_URL'),
    sparePorts: spareBase ? Array.from({ length: SPARE_PORTS }, (_, i) => spareBase + i) : [],
    scratchDir: resolve(env.LAB_SCRATCH_DIR || join(tmpdir(), 'oversell-lab')),
    pageDir: resolve(env.LAB_PAGE_DIR || BUILT_PAGE),
    logLevel,
  };
}
