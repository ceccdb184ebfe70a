import { auditOf } from '../../test/fixtures/audit';
import { persisterKillChecks, type PersisterKill } from './persister-kill';

// 20 accepted, all granted once another persister reclaimed the killed one's batch.
const killed: PersisterKill = {
  accepted: 20,
  audit: auditOf(60, 20, { statements: 3 }),
  restarted: ['api-2'],
  drainedAfterMs: 5400,
  reclaimIdleMs: 5000,
};
const failed = (k: PersisterKill) => persisterKillChecks(k).flatMap((c) => (c.pass ? [] : [c.what]));

describe('persisterKillChecks', () => {
  it('pass when one replica restarted and the batch drained no sooner than the reclaim idle time, each order granted once', () => {
    expect(failed(killed)).toEqual([]);
    expect(failed({ ...killed, drainedAfterMs: 5000 })).toEqual([]); // exactly the idle time
  });

  it('fail when no replica restarted: no persister was killed, so nothing was reclaimed', () => {
    expect(failed({ ...killed, restarted: [] })).not.toEqual([]);
  });

  it('fail when two replicas restarted: one crash was asked for', () => {
    expect(failed({ ...killed, restarted: ['api-1', 'api-2'] })).not.toEqual([]);
  });

  it('fail a drain sooner than the reclaim idle time: the batch was not left to another persister', () => {
    expect(failed({ ...killed, drainedAfterMs: 4999 })).not.toEqual([]);
  });

  it('fail a grant missing or a unit sold twice', () => {
    expect(failed({ ...killed, audit: { ...killed.audit, grants: 19, stock: 41 } })).not.toEqual([]);
    expect(failed({ ...killed, audit: { ...killed.audit, grants: 21, stock: 40, lostUpdates: 1 } })).not.toEqual([]);
  });
});
