import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StackConfig } from './config';
import { superviseReplica, type SupervisedReplica } from './servers/replica';

export interface LabProcessOptions {
  readonly config: StackConfig;
  readonly nginxUrl: string;
  readonly controlUrl: string;
  /** The replicas' own environment: its database, Redis, token and chaos setting apply to the lab too. */
  readonly env: NodeJS.ProcessEnv;
  readonly onStart: () => void;
  readonly log: (line: string) => void;
}

/**
 * The lab page's server (apps/lab), kept alive like a replica and reached through nginx at /lab/.
 * Its loads go through nginx; its steps also talk to each replica, the lock Redis and the control endpoint.
 * When it is not built the stack runs without it (and says so), as the API alone needs nothing of it.
 */
export function superviseLab(options: LabProcessOptions): SupervisedReplica | undefined {
  const { config, log } = options;
  if (!existsSync(config.labEntry)) {
    log(`warning: ${config.labEntry} is missing (npm run build): the stack runs without the lab page`);
    return undefined;
  }
  return superviseReplica({
    id: 'lab',
    port: config.ports.lab,
    entry: config.labEntry,
    env: {
      ...options.env,
      NO_COLOR: '1',
      API_URL: options.nginxUrl,
      REPLICA_URLS: config.ports.api.map((port, i) => `api-${i + 1}=http://127.0.0.1:${port}`).join(','),
      CONTROL_URL: options.controlUrl,
      LAB_SPARE_PORT_BASE: String(config.labSparePortBase),
      LAB_SCRATCH_DIR: join(config.dir, 'lab'),
    },
    onStart: (lab) => {
      log(`lab started (pid ${lab.pid})`);
      options.onStart();
    },
    log,
  });
}
