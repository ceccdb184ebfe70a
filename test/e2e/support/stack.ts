import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Coupon } from '@app/contract';
import type { StackInfo } from '../../../tools/stack/stack';
import { TEST_PORT_OFFSET, testPort } from '../../ports';

export type { StackInfo } from '../../../tools/stack/stack';
export type { Coupon, ErrorBody } from '@app/contract';
export { control } from '../../../tools/stack/stack';

/** The private stack of the e2e run: its own ports, directory and a fixed admin token. */
export const E2E_STACK_ENV = {
  STACK_DIR: TEST_PORT_OFFSET ? `.stack/test-${TEST_PORT_OFFSET}` : '.stack/test',
  NGINX_PORT: String(testPort(28180)),
  API_PORT_BASE: String(testPort(23101)),
  PG_PORT: String(testPort(25532)),
  REDIS_PORT: String(testPort(26479)),
  REDLOCK_PORT_BASE: String(testPort(26481)),
  CONTROL_PORT: String(testPort(28199)),
  REDIS_REPLICA_PORT: String(testPort(26486)),
  REDIS_SENTINEL_PORT_BASE: String(testPort(26490)),
  REDIS_CLUSTER_PORT_BASE: String(testPort(22101)),
  LAB_PORT: String(testPort(28190)),
  LAB_SPARE_PORT_BASE: String(testPort(26960)),
  CHAOS_ENABLED: 'true',
  ADMIN_TOKEN: 'e2e-admin-token',
  // A stepped grab nobody steps is let go after this (30 s by default): the scheduler spec waits for it.
  STEP_HOLD_MS: '8000',
  // The suite's database is rebuilt at will: commits need not reach the disk.
  PG_FSYNC: 'off',
} as const;

/** Ports for the servers a walkthrough step starts itself (the failover pairs). */
export const E2E_SPARE_PORT_BASE = testPort(26790);

/** E2E_USE_RUNNING_STACK=1 runs the specs against the stack in STACK_DIR (default .stack) instead. */
export const useRunningStack = () => process.env.E2E_USE_RUNNING_STACK === '1';

export function e2eStackDir(): string {
  const root = resolve(__dirname, '..', '..', '..');
  return resolve(root, useRunningStack() ? process.env.STACK_DIR || '.stack' : E2E_STACK_ENV.STACK_DIR);
}

/** The stack the specs run against, read fresh from its stack.json (pids change on restarts). */
export function testStack(): StackInfo {
  const file = join(e2eStackDir(), 'stack.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StackInfo;
  } catch (error) {
    throw new Error(`no stack for the e2e specs (${file}): run them through jest's e2e project`, { cause: error });
  }
}

export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** One request; an object body is sent as JSON, a string body as is (to test malformed JSON). */
export async function http<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer<T>> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '';
  return { status: res.status, headers: res.headers, body: (json ? JSON.parse(text) : text) as T };
}

export function admin(info: StackInfo): Record<string, string> {
  return { authorization: `Bearer ${info.adminToken}` };
}

/** Creates a coupon through nginx; throws unless the API answers 201. */
export async function createCoupon(info: StackInfo, stock: number, segments?: number): Promise<Coupon> {
  const res = await http<Coupon>(
    'POST',
    `${info.nginxUrl}/coupons`,
    { name: `e2e-${Date.now()}`, stock, ...(segments ? { segments } : {}) },
    admin(info),
  );
  if (res.status !== 201) throw new Error(`POST /coupons answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
