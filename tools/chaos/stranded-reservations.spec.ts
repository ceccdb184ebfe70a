import { checkInvariants, type Observed } from './invariants';
import type { Verdict } from './outcome';
import { failedNames } from './check.fixture';
import { strandedCount } from './stranded-reservations';

const UNDERSOLD = 'no sold-out answer while stock remained';
const buyers = (n: number) => Array.from({ length: n }, (_, i) => `u${i}`);

// redis-lua through a replica kill: 10 units, `stock` left in the stock of record, the rest granted
// and acknowledged; one grab died with the replica and 5 buyers were told sold out.
const run = (stock: number, strandedReservations: number | undefined): Observed => ({
  fault: 'replica-kill',
  strategy: 'redis-lua',
  strandedReservations,
  audit: {
    initialStock: 10,
    stock,
    grants: 10 - stock,
    oversold: 0,
    lostUpdates: 0,
    maxConcurrentHolders: 1,
    statements: 10 - stock,
  },
  acknowledged: buyers(10 - stock),
  grantedInDb: buyers(10 - stock),
  resolvedByRetry: [],
  verdicts: [...Array<Verdict>(10 - stock).fill('granted'), 'died-with-replica', ...Array<Verdict>(5).fill('refused')],
  soldOutAnswers: 5,
  maxLatencyMs: 900,
  timeoutMs: 10_000,
  recovery: { sawUnhealthy: true, saw503: false, recoveryMs: 300 },
  afterRecovery: Array<Verdict>(50).fill('refused'),
  dependencyFault: false,
  unexpectedRestarts: 0,
});

const undersoldCheck = (o: Observed) => checkInvariants(o).find((c) => c.name === UNDERSOLD);

describe("redis-lua's units stranded by a replica kill", () => {
  it('are excused when the reservations stranded in Redis hold every unit left, and the detail says so', () => {
    expect(failedNames(checkInvariants(run(1, 1)))).toEqual([]);
    expect(undersoldCheck(run(1, 1))?.detail).toBe(
      '5 sold-out answers, stock 1 left: 1 unit reserved by a grab that died with its replica, held until its lease ends',
    );
    expect(undersoldCheck(run(2, 2))?.detail).toBe(
      '5 sold-out answers, stock 2 left: 2 units reserved by grabs that died with their replica, held until their leases end',
    );
  });

  it('excuse no unit beyond the stranded reservations', () => {
    expect(failedNames(checkInvariants(run(2, 1)))).toEqual([UNDERSOLD]);
    expect(undersoldCheck(run(2, 1))?.detail).toBe(
      '5 sold-out answers, stock 2 left, 1 reservation stranded: UNDERSOLD',
    );
  });

  it('excuse nothing when no reservation was stranded, or Redis was not read', () => {
    expect(failedNames(checkInvariants(run(1, 0)))).toEqual([UNDERSOLD]);
    expect(failedNames(checkInvariants(run(1, undefined)))).toEqual([UNDERSOLD]);
    expect(undersoldCheck(run(1, undefined))?.detail).toBe('5 sold-out answers, stock 1 left: UNDERSOLD');
  });

  it('excuse nothing for another strategy or another fault', () => {
    expect(failedNames(checkInvariants({ ...run(1, 1), strategy: 'db-atomic' }))).toEqual([UNDERSOLD]);
    const redisRestart: Observed = {
      ...run(1, 1),
      fault: 'redis-restart',
      dependencyFault: true,
      recovery: { sawUnhealthy: true, saw503: true, recoveryMs: 300 },
    };
    expect(failedNames(checkInvariants(redisRestart))).toEqual([UNDERSOLD]);
  });

  it('leave stock + grants = initial stock strict', () => {
    const short = run(1, 1);
    expect(failedNames(checkInvariants({ ...short, audit: { ...short.audit, grants: 8 } }))).toContain(
      'stock + grants = initial stock',
    );
  });
});

describe('strandedCount', () => {
  it('counts the reservations no grant row accounts for, each grant settling one of its buyer’s at most', () => {
    // u1: no grant, stranded; u2: granted, one of two reservations persisted; u3: granted, its zrem lost.
    expect(strandedCount(['u1|a1', 'u2|b1', 'u2|b2', 'u3|c1'], ['u2', 'u3', 'u4'])).toBe(2);
    expect(strandedCount([], ['u1'])).toBe(0);
    // A userId may hold the separator: the nonce follows the last one.
    expect(strandedCount(['chaos|7|ab12'], ['chaos|7'])).toBe(0);
  });
});
