import { lowerMedian } from './metrics/figures';
import { commitsPerGrant } from './report/columns';
import { lesson, titles } from './report/evidence';
import { num } from '../tools/report/format';
import { scenarioFor } from './scenarios';
import { medianRun } from './sell-out/sell-out-round';
import { slowDbLesson } from './slow-db/slow-db-lesson';
import type { BenchReport, Lesson, StrategyResult } from './types';

type Run = Omit<BenchReport, 'lessons'>;

/** How far a single lock's rate may be from one section after another, 1000 / (section + hand-off). */
const SERIAL_TOLERANCE = 0.05;
/** How many times fewer commits per grant coalescing must spend than one statement per grant, at least. */
const COALESCING_FACTOR = 2;

const rate = (r: StrategyResult) => `${r.strategy} ${num(r.grabsPerSec)} grabs/s`;
const most = (results: StrategyResult[], by: (r: StrategyResult) => number) =>
  results.reduce<StrategyResult | undefined>((a, b) => (a && by(a) >= by(b) ? a : b), undefined);
const resultsAt = (run: Run, workMs: number) => run.loads.find((l) => l.workMs === workMs)?.results ?? [];
const find = (run: Run, workMs: number, name: string) => resultsAt(run, workMs).find((r) => r.strategy === name);
/** A wrong baseline at the load where it oversold most. */
const worst = (run: Run, name: string) => {
  const rows = run.loads.flatMap((l) => l.results).filter((r) => r.strategy === name);
  return most(rows, (r) => r.audit.oversold);
};

/** The correct locks that let one buyer at a time into the section of one stock row. */
const singleLocks = (results: StrategyResult[]) =>
  results.filter((r) => {
    const s = scenarioFor(r.strategy);
    return s.inLock && s.segments === 'one' && s.promisesExclusion && s.expectedFlags.length === 0;
  });

function noLockOversells(run: Run): Lesson | undefined {
  const none = worst(run, 'none');
  if (!none) return undefined;
  const { oversold, lostUpdates } = none.audit;
  const text =
    `Without a lock, buyers read the same stock and write back the same value: none sold ${oversold} ` +
    `coupons beyond the stock and lost ${lostUpdates} updates (workMs ${none.workMs}).`;
  const notHeld = `none oversold ${oversold}, lost ${lostUpdates}`;
  return lesson('no-lock-oversells', text, oversold > 0, notHeld, titles.correctness(none.workMs));
}

function localMutexOversells(run: Run): Lesson | undefined {
  const mutex = worst(run, 'synchronized');
  if (!mutex) return undefined;
  const { oversold, maxConcurrentHolders: holders } = mutex.audit;
  const text =
    `A lock inside each process does not protect ${run.target.replicas} replicas: synchronized sold ` +
    `${oversold} coupons beyond the stock, with ${holders} holders at once.`;
  const notHeld = `synchronized oversold ${oversold}, ${holders} holder(s) at once`;
  return lesson('local-mutex-oversells', text, oversold > 0, notHeld, titles.correctness(mutex.workMs));
}

// Only the correct single locks are compared (a segmented lock splits the stock, a wrong one skips the wait).
function atomicBeatsLocks(run: Run): Lesson | undefined {
  const atomic = find(run, 0, 'db-atomic');
  const lock = most(singleLocks(resultsAt(run, 0)), (r) => r.grabsPerSec);
  if (!atomic || !lock || lock.grabsPerSec <= 0) return undefined;
  const text =
    'With nothing to protect between read and write, one conditional statement beats every correct lock on one ' +
    `stock row that ran: db-atomic ${num(atomic.grabsPerSec)} grabs/s against ${num(lock.grabsPerSec)} for the ` +
    `fastest of them, ${lock.strategy} (${num(atomic.grabsPerSec / lock.grabsPerSec, 1)}×).`;
  const held = atomic.grabsPerSec > lock.grabsPerSec;
  return lesson('atomic-beats-locks', text, held, `${rate(atomic)} ≤ ${rate(lock)}`, titles.throughput(0));
}

/** With work inside, a single lock runs one section after another, and no faster than 1000 / workMs. */
function lockSerialises(run: Run): Lesson | undefined {
  const load = run.loads.find((l) => l.workMs > 0);
  const locks = singleLocks(load?.results ?? []);
  const best = most(locks, (r) => r.grabsPerSec);
  if (!load || !best) return undefined;
  const cap = 1000 / load.workMs;
  const overlapped = locks.find((r) => r.audit.maxConcurrentHolders > 1);
  const { meanSectionMs: section, meanGapMs: gap } = best.utilisation;
  const serial = 1000 / (section + gap);
  const off = Math.abs(best.grabsPerSec - serial);
  const text =
    `With ${load.workMs} ms of work inside the section, one lock serialises every buyer: the best, ` +
    `${best.strategy}, ran ${num(best.grabsPerSec)} grabs/s, within ${num(SERIAL_TOLERANCE * 100)}% of 1000 / ` +
    `(${num(section, 1)} ms in the section + ${num(gap, 1)} ms of hand-off) = ${num(serial)}, ` +
    `and no lock passed 1000 / ${load.workMs} = ${num(cap)}.`;
  const notHeld = overlapped
    ? `${overlapped.strategy} had ${overlapped.audit.maxConcurrentHolders} holders at once, 1 at most expected`
    : best.grabsPerSec > cap
      ? `${rate(best)} > 1000 / ${load.workMs} = ${num(cap)} grabs/s`
      : `${rate(best)} is ${num((off / serial) * 100)}% from 1000 / (${num(section, 1)} + ${num(gap, 1)}) = ${num(serial)}`;
  const held = !overlapped && best.grabsPerSec <= cap && off <= serial * SERIAL_TOLERANCE;
  return lesson('one-lock-serialises', text, held, notHeld, titles.throughput(load.workMs));
}

function segmentsSellOutFaster(run: Run): Lesson | undefined {
  const race = run.sellOut;
  const single = race && medianRun(race, 'owner-checked');
  const split = race && medianRun(race, 'segmented');
  if (!race || !single || !split || split.sellOutMs <= 0) return undefined;
  const text =
    `Split into ${split.segments} segments with a lock each, ${race.stock} units sold out ` +
    `${num(single.sellOutMs / split.sellOutMs, 1)}× faster than under one lock: ${num(split.sellOutMs)} ms ` +
    `against ${num(single.sellOutMs)} ms for owner-checked (workMs ${race.workMs}).`;
  const soldOut = single.stockLeft === 0 && split.stockLeft === 0;
  const notHeld = soldOut
    ? `segmented ${num(split.sellOutMs)} ms ≥ owner-checked ${num(single.sellOutMs)} ms`
    : `stock left: segmented ${split.stockLeft}, owner-checked ${single.stockLeft}`;
  const held = soldOut && split.sellOutMs < single.sellOutMs;
  return lesson('segments-sell-out-faster', text, held, notHeld, titles.sellOut);
}

/** Judged on commits per grant as PostgreSQL counts them; the rates trade places run to run, so are only shown. */
function coalescing(run: Run): Lesson | undefined {
  const [batched, atomic] = [find(run, 0, 'db-batched'), find(run, 0, 'db-atomic')];
  const [b, a] = [batched, atomic].map((r) => r && commitsPerGrant(r));
  const hotRow = run.ceilings.pgHotRowPerSec;
  if (!batched || !atomic || !b || !a || hotRow <= 0) return undefined;
  const text =
    `Coalescing spends one commit on many grants: db-batched committed ${num(b, 2)} times per grant ` +
    `(${num(1 / b, 1)} grants per commit), db-atomic ${num(a, 2)}, as PostgreSQL's transaction ids count them ` +
    `(workMs 0). Where durable commits bound the rate (one hot row alone: ${num(hotRow)} commits/s here), ` +
    `coalescing lifts that bound ${num(a / b, 1)}×. This run's rates: db-atomic ${num(atomic.grabsPerSec)} grabs/s, ` +
    `db-batched ${num(batched.grabsPerSec)}.`;
  const notHeld = `${num(b, 2)} commits per grant against ${num(a, 2)}, ${COALESCING_FACTOR}× fewer expected`;
  return lesson('coalescing-fewer-commits', text, b * COALESCING_FACTOR <= a, notHeld, titles.commits(0));
}

/** Read under the last load, on a warm stack as the ceilings are: a fresh stack's first rounds run cold. */
function soldOutCostsOneRequest(run: Run): Lesson | undefined {
  const last = run.loads.at(-1);
  const rates = (last?.results ?? []).flatMap((r) => (r.soldOut ? [r.soldOut.perSec] : [])).sort((a, b) => a - b);
  const [http, median] = [run.ceilings.httpPerSec, lowerMedian(rates)];
  if (median === undefined || http <= 0) return undefined;
  const text =
    `Turning away a buyer of a sold-out coupon costs about one HTTP request: ${num(median)} answers/s ` +
    `(median of the ${rates.length} sold-out rounds at workMs ${last?.workMs}, the last load) against ` +
    `${num(http)}/s for the HTTP stack alone.`;
  // "About one": within a factor of two either way.
  const held = median >= http / 2 && median <= http * 2;
  const notHeld = `${num(median)}/s against http ${num(http)}/s`;
  return lesson('sold-out-costs-one-request', text, held, notHeld, titles.soldOutColumn);
}

/** The lessons of a run whose strategies ran, in teaching order. */
export function lessonsOf(run: Run): Lesson[] {
  return [
    noLockOversells(run),
    localMutexOversells(run),
    atomicBeatsLocks(run),
    lockSerialises(run),
    segmentsSellOutFaster(run),
    coalescing(run),
    ...(run.slowDb ? slowDbLesson(run.slowDb) : []),
    soldOutCostsOneRequest(run),
  ].filter((l) => l !== undefined);
}
