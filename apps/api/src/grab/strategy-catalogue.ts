/** How a strategy takes one unit of stock. */
export type DeductionMode =
  'read-modify-write' | 'atomic' | 'for-update' | 'optimistic' | 'redis-lua' | 'batched' | 'stream';

export interface GrabStrategy {
  readonly name: string;
  /** The LockRegistry strategy that guards the section; none for the lock-free baselines. */
  readonly lock?: string;
  readonly deduction: DeductionMode;
  /** One lock per stock row instead of one per coupon. */
  readonly segmented?: boolean;
  /** Takes the unit before the database write (a Redis reservation, a batch queue): crash=after-reserve applies. */
  readonly reserves?: boolean;
  readonly fixes: string;
  readonly breaks: string;
}

/** Every strategy the API can offer, in teaching order; one is offered once its lock exists. */
export const STRATEGY_CATALOGUE: readonly GrabStrategy[] = [
  {
    name: 'none',
    lock: 'none',
    deduction: 'read-modify-write',
    fixes: 'nothing: read stock, work, write stock-1 back',
    breaks: 'concurrent sections read the same stock: lost updates and oversell',
  },
  {
    name: 'synchronized',
    lock: 'synchronized',
    deduction: 'read-modify-write',
    fixes: 'an in-process mutex serialises sections inside one replica',
    breaks: 'invisible to the other replicas: three replicas still oversell',
  },
  {
    name: 'setnx',
    lock: 'setnx',
    deduction: 'read-modify-write',
    fixes: 'SETNX + DEL: one lock shared by every replica',
    breaks: 'a holder that crashes leaves the lock forever: every later grab times out',
  },
  {
    name: 'set-nx-px',
    lock: 'set-nx-px',
    deduction: 'read-modify-write',
    fixes: 'SET NX PX: the lock expires, so a crashed holder heals after the lease',
    breaks: "a holder slower than the lease deletes the next holder's lock: two holders",
  },
  {
    name: 'owner-checked',
    lock: 'owner-checked',
    deduction: 'read-modify-write',
    fixes: 'a random owner value and a Lua compare-and-delete: no foreign delete',
    breaks: 'a pause past the lease still gives two holders; nested acquisition self-deadlocks',
  },
  {
    name: 'reentrant',
    lock: 'reentrant',
    deduction: 'read-modify-write',
    fixes: 'a Redisson-style hash lock counting holds per owner: nested acquisition works',
    breaks: 'a pause past the fixed lease still gives two holders',
  },
  {
    name: 'watchdog',
    lock: 'watchdog',
    deduction: 'read-modify-write',
    fixes: 'the lease is renewed every lease/3 while held: a slow holder keeps its lock',
    breaks: 'a frozen process (GC pause) freezes its renewer too; a Redis failover loses the lock',
  },
  {
    name: 'segmented',
    lock: 'watchdog',
    deduction: 'read-modify-write',
    segmented: true,
    fixes: 'stock split into segments, one lock each: sections on different segments run in parallel',
    breaks: 'nothing new; it must stay exact and never report sold out while a segment has stock',
  },
  {
    name: 'fenced',
    lock: 'fenced',
    deduction: 'read-modify-write',
    fixes: "a monotonic token checked by the database: a stale holder's write is refused",
    breaks: 'a refused holder must retry; the store itself must check the token',
  },
  {
    name: 'redlock',
    lock: 'redlock',
    deduction: 'read-modify-write',
    fixes: 'a majority of five independent Redis nodes: one or two nodes down lose nothing',
    breaks: 'process pauses and clock jumps still break it (the Redlock debate)',
  },
  {
    name: 'db-atomic',
    deduction: 'atomic',
    fixes: 'no lock: one conditional UPDATE ... WHERE stock > 0',
    breaks: 'nothing for stock; the business work cannot sit between read and write',
  },
  {
    name: 'db-for-update',
    deduction: 'for-update',
    fixes: 'no Redis: SELECT ... FOR UPDATE holds the row for the whole section',
    breaks: 'every holder pins a database connection for its work',
  },
  {
    name: 'db-optimistic',
    deduction: 'optimistic',
    fixes: 'no lock: a version column; losers retry',
    breaks: 'under contention most attempts lose: a retry storm (retries are counted)',
  },
  {
    name: 'redis-lua',
    deduction: 'redis-lua',
    reserves: true,
    fixes: 'no lock: a Lua script reserves stock in Redis, the database persists the grant conditionally',
    breaks:
      'a crash between reserve and persist strands a unit in Redis until its deadline (undersell, never oversell)',
  },
  {
    name: 'db-batched',
    deduction: 'batched',
    reserves: true,
    fixes:
      "one commit per grant: a replica queues a coupon's grabs while its statement is in flight, and the next statement grants the whole queue",
    breaks:
      'no single holder (a batch is one section of many grants); each grab waits for the batch ahead; a crash after the queue took a grab loses its answer, never a unit',
  },
  {
    name: 'redis-stream',
    deduction: 'stream',
    fixes:
      'the answer waits for no database: one Lua script takes the unit, records the buyer and queues the order on a Redis stream (202 accepted); persisters write the grants in batches',
    breaks:
      'an accepted order lives only in Redis until it is persisted: Redis lost without an fsynced append-only file loses accepted orders; the buyer learns the outcome later',
  },
];
