import { FAULT_NAMES, type FaultName } from './faults';
import type { ScenarioOptions } from './scenario';

export interface ChaosOptions {
  readonly faults: readonly FaultName[];
  /** Undefined: every strategy of CORRECT_STRATEGIES the API offers. */
  readonly strategies?: readonly string[];
  readonly scenario: ScenarioOptions;
  /** Where to write the results as JSON, if anywhere. */
  readonly json?: string;
  /** Grabs under load per strategy, holds through a confirm and an expiry; undefined: both. */
  readonly only?: 'grabs' | 'holds';
}

/**
 * 900 grabs at 60/s (15 s) by 12 connections; the fault at 2 s, dependencies down for 5 s (past the
 * 2 s Redis command timeout): long enough that well over 50 grabs follow even a slow recovery.
 */
export const DEFAULT_SCENARIO: ScenarioOptions = Object.freeze({
  requests: 900,
  concurrency: 12,
  ratePerSec: 60,
  timeoutMs: 10_000,
  stock: 450,
  faultAtMs: 2000,
  downMs: 5000,
  recoveryTimeoutMs: 30_000,
  // A short lease so a killed holder's lock expires within the wait; a little work inside the section.
  query: Object.freeze({ leaseMs: 3000, waitMs: 5000, workMs: 2 }),
});

/** Every strategy that promises to stay exact, the ones the API does not offer left out. */
export const CORRECT_STRATEGIES = [
  'watchdog',
  'segmented',
  'fenced',
  'db-atomic',
  'db-for-update',
  'redis-lua',
  'db-batched',
  'redis-stream',
];

export const USAGE = `usage: npm run chaos -- [--faults ${FAULT_NAMES.join(',')}] [--strategies ${CORRECT_STRATEGIES.join(',')}]
  [--only grabs|holds] [--requests N] [--concurrency N] [--rate N/s] [--stock N] [--timeout-ms N] [--fault-at-ms N] [--down-ms N] [--json FILE]
  --only holds: just the holds run (a replica killed mid-confirm, PostgreSQL restarted while holds expire)`;

const NUMERIC: Record<string, keyof ScenarioOptions> = {
  '--requests': 'requests',
  '--concurrency': 'concurrency',
  '--rate': 'ratePerSec',
  '--stock': 'stock',
  '--timeout-ms': 'timeoutMs',
  '--fault-at-ms': 'faultAtMs',
  '--down-ms': 'downMs',
};

export function parseChaosArgs(argv: readonly string[]): ChaosOptions {
  let faults: FaultName[] = [...FAULT_NAMES];
  let strategies: string[] | undefined;
  let json: string | undefined;
  let only: ChaosOptions['only'];
  const scenario: Record<string, unknown> = { ...DEFAULT_SCENARIO };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    if (flag === '--faults') {
      faults = value.split(',') as FaultName[];
      const unknown = faults.filter((f) => !FAULT_NAMES.includes(f));
      if (unknown.length) throw new Error(`unknown fault ${unknown.join(', ')}\n${USAGE}`);
    } else if (flag === '--strategies') strategies = value.split(',').filter(Boolean);
    else if (flag === '--json') json = value;
    else if (flag === '--only') {
      if (value !== 'grabs' && value !== 'holds')
        throw new Error(`--only takes grabs or holds, not "${value}"\n${USAGE}`);
      only = value;
    } else if (NUMERIC[flag]) {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || (n === 0 && flag !== '--fault-at-ms' && flag !== '--down-ms'))
        throw new Error(`${flag} needs a positive integer, not "${value}"`);
      scenario[NUMERIC[flag]] = n;
    } else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  return { faults, strategies, scenario: scenario as unknown as ScenarioOptions, json, only };
}
