import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { control, type StackInfo } from '../tools/stack/stack';
import { StackApi } from './stack-api';
import { LockKeys } from './lock-keys';
import type { StepContext } from './step';

/** Ports for servers a step starts itself (the failover pair); overridable for parallel runs. */
export function sparePorts(env: NodeJS.ProcessEnv = process.env): number[] {
  const base = Number(env.WALKTHROUGH_PORT_BASE || 26790);
  return Array.from({ length: 10 }, (_, i) => base + i);
}

export interface OpenContext {
  readonly ctx: StepContext;
  /** A plain function, so callers may destructure it. */
  readonly close: () => void;
}

/** Connects to the stack: its API through nginx and per replica, its Redis, its control endpoint. */
export async function openContext(
  info: StackInfo,
  options: { say?: (line: string) => void; ports?: number[] } = {},
): Promise<OpenContext> {
  const api = new StackApi(info.nginxUrl, info.replicas, info.adminToken);
  const strategies = new Set(await api.strategies());
  const keys = LockKeys.connect(info.redisUrl);
  const scratchDir = join(info.dir, 'walkthrough');
  mkdirSync(scratchDir, { recursive: true });
  const ctx: StepContext = {
    api,
    keys,
    strategies,
    control: (path) => control(info, path),
    scratchDir,
    sparePorts: options.ports ?? sparePorts(),
    say: options.say ?? (() => undefined),
  };
  return { ctx, close: () => keys.close() };
}
