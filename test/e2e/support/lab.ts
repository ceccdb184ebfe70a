import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { LabClient, type LoadEvent, type LoadRequest } from '@app/contract';
import { startChild, waitFor } from '../../../tools/stack/servers/child';
import type { StackInfo } from './stack';

export const LAB_ENTRY = resolve(__dirname, '../../../dist/apps/lab/apps/lab/src/main.js');

/** The lab page through the stack's nginx (`…/lab/`); fails clearly when the lab was not built. */
export function labUrl(info: StackInfo): string {
  if (!info.labUrl) throw new Error('the stack runs without the lab server: run `npm run build` (it builds apps/lab)');
  return info.labUrl;
}

/** The lab's API client through nginx. */
export function labClient(info: StackInfo): LabClient {
  return new LabClient(labUrl(info).replace(/\/$/, ''));
}

/** A load run to its end: every event, in order. */
export async function runLoad(lab: LabClient, request: LoadRequest, signal?: AbortSignal): Promise<LoadEvent[]> {
  const events: LoadEvent[] = [];
  await lab.runLoad(request, (e) => events.push(e), signal);
  return events;
}

export interface ExtraLab {
  readonly url: string;
  stop(): Promise<void>;
}

/** One more lab server on the stack, set up as docker-compose runs it: no control endpoint, no servers of its own. */
export async function startComposeLikeLab(info: StackInfo, port: number, chaos: boolean): Promise<ExtraLab> {
  if (!existsSync(LAB_ENTRY)) throw new Error(`${LAB_ENTRY} is missing: run \`npm run build\``);
  const child = startChild('lab-compose', process.execPath, [LAB_ENTRY], {
    env: {
      ...process.env,
      PORT: String(port),
      API_URL: info.nginxUrl,
      REPLICA_URLS: info.replicas.map((r) => `${r.id}=${r.url}`).join(','),
      REDIS_URL: info.redisUrl,
      ADMIN_TOKEN: info.adminToken,
      CHAOS_ENABLED: String(chaos),
      CONTROL_URL: '',
      LAB_SPARE_PORT_BASE: '',
      LOG_LEVEL: 'warn',
    },
  });
  child.child.stdout?.resume();
  child.child.stderr?.resume();
  const url = `http://127.0.0.1:${port}/lab`;
  await waitFor('the compose-like lab', async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 20_000, 100);
  return { url, stop: () => child.stop('SIGTERM') };
}
