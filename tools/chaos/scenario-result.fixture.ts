import type { ScenarioResult } from './scenario';

/** A plausible redis-restart / watchdog run for the renderers' specs, with `over` applied. */
export const scenarioResult = (over: Partial<ScenarioResult>): ScenarioResult => ({
  fault: 'redis-restart',
  strategy: 'watchdog',
  couponId: 1,
  requests: 600,
  acknowledged: 239,
  audit: {
    initialStock: 300,
    stock: 61,
    grants: 239,
    oversold: 0,
    lostUpdates: 0,
    maxConcurrentHolders: 1,
    statements: 239,
  },
  statuses: { '200': 239, '503 DEPENDENCY.UNAVAILABLE': 361 },
  verdicts: { granted: 239, accepted: 0, refused: 0, clear: 361, 'died-with-replica': 0, unclear: 0 },
  recoveryMs: 5516,
  answeredAfterRecovery: 150,
  maxLatencyMs: 3535,
  inFlightAtKill: 0,
  diedWithReplica: { count: 0, grantedInDb: 0 },
  resolution: { asked: 361, storedUnacknowledged: 0, grantedOnRetry: 0 },
  injectedAtMs: 2000,
  healedAtMs: 7000,
  timeline: [],
  checks: [],
  ok: true,
  ...over,
});
