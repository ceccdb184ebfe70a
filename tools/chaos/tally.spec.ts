import type { RequestRecord } from './load-driver';
import { tally } from './tally';

const rec = (userId: string, sentAtMs: number, endedAtMs: number, status?: number, code?: string): RequestRecord => ({
  userId,
  sentAtMs,
  endedAtMs,
  outcome: status === undefined ? { kind: 'broken', reason: 'ECONNRESET' } : { kind: 'answer', status, code },
});

describe('tally', () => {
  const records = [
    rec('u0', 10, 50, 200),
    rec('u1', 20, 900, 503, 'DEPENDENCY.UNAVAILABLE'),
    rec('u2', 1100, 1200, 200),
    rec('u3', 1150, 1300),
    rec('u4', 1160, 1400, 502, 'UPSTREAM.FAILED'),
    rec('u5', 1170, 1180, 202),
  ];
  const result = tally(
    records,
    ['granted', 'clear', 'granted', 'died-with-replica', 'died-with-replica', 'accepted'],
    new Set(['u0', 'u2', 'u4']),
  );

  it('counts statuses, verdicts, acknowledged users and accepted orders', () => {
    expect(result.statuses).toEqual({
      '200': 2,
      '202': 1,
      '503 DEPENDENCY.UNAVAILABLE': 1,
      ECONNRESET: 1,
      '502 UPSTREAM.FAILED': 1,
    });
    expect(result.verdicts).toEqual({
      granted: 2,
      accepted: 1,
      refused: 0,
      clear: 1,
      'died-with-replica': 2,
      unclear: 0,
    });
    expect(result.acknowledged).toEqual(['u0', 'u2']);
    expect(result.accepted).toEqual([{ userId: 'u5', sentAtMs: 1170, answeredAtMs: 1180 }]);
  });

  it('says how many requests that died with the replica were granted anyway', () => {
    expect(result.diedWithReplica).toEqual({ count: 2, grantedInDb: 1 });
  });

  it('buckets answers by the second they were sent in and keeps the slowest latency', () => {
    expect(result.timeline).toEqual([
      { '200': 1, '503 DEPENDENCY.UNAVAILABLE': 1 },
      { '200': 1, '202': 1, ECONNRESET: 1, '502 UPSTREAM.FAILED': 1 },
    ]);
    expect(result.maxLatencyMs).toBe(880);
  });
});
