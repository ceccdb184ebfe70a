import { lowerMedian } from './metrics/figures';
import { commitsPerGrant } from './report/columns';
import { num } from './report/format';
import { lesson, titles } from './report/evidence';
import { scenarioFor } from './scenarios';
import { medianRun } from './sell-out/sell-out-round';
import { slowDbLesson } from './slow-db/slow-db-lesson';
import type { BenchReport, Lesson, LoadResult, StrategyResult } from './types';

type Run = Omit<BenchReport, 'lessons'>;

const rate = (r: StrategyResult) => `${r.strategy} ${num(r.grabsPerSec)} grabs/s`;
const most = (results: StrategyResult[], by: (r: StrategyResult) => number) =>
  results.reduce<StrategyResult | undefined>((a, b) => (a && by(a) >= by(b) ? a : b), undefined);
const fastest = (results: StrategyResult[]) => most(results, (r) => r.grabsPerSec);
const find = (run: Run, workMs: number, strategy: string) =>
  run.loads.find((l) => l.workMs === workMs)?.results.find((r) => r.strategy === strategy);

/** Locks that let one buyer at a time into the section of one stock row, and are meant to be correct. */
function singleLocks(load: LoadResult | undefined): StrategyResult[] {
  return (load?.results ?? []).filter((r) => {
    const s = scenarioFor(r.strategy);
    return s.inLock && s.segments === 'one' && s.promisesExclusion && s.expectedFlags.length === 0;
  });
}

/** The two wrong baselines, at the load where each oversold most, as the database shows. */
function wrongBaselines(run: Run): Lesson[] {
  const worst = (strategy: string) =>
    most(
      run.loads.flatMap((l) => l.results.filter((r) => r.strategy === strategy)),
      (r) => r.audit.oversold,
    );
  const [none, mutex] = [worst('none'), worst('synchronized')];
  const lessons: Lesson[] = [];
  if (none) {
    const { oversold, lostUpdates } = none.audit;
    const text =
      `Without a lock, buyers read the same stock and write back the same value: none sold ${oversold} ` +
      `coupons beyond the stock and lost ${lostUpdates} updates (workMs ${none.workMs}).`;
    const notHeld = `none oversold ${oversold}, lost ${lostUpdates}`;
    lessons.push(lesson('no-lock-oversells', text, oversold > 0, notHeld, titles.correctness(none.workMs)));
  }
  if (mutex) {
    const { oversold, maxConcurrentHolders: holders } = mutex.audit;
    const text =
      `A lock inside each process does not protect ${run.target.replicas} replicas: synchronized sold ` +
      `${oversold} coupons beyond the stock, with ${holders} holders at once.`;
    const notHeld = `synchronized oversold ${oversold}, ${holders} holder(s) at once`;
    lessons.push(lesson('local-mutex-oversells', text, oversold > 0, notHeld, titles.correctness(mutex.workMs)));
  }
  return lessons;
}

function atomicBeatsLocks(run: Run): Lesson[] {
  const atomic = find(run, 0, 'db-atomic');
  const lock = fastest(singleLocks(run.loads.find((l) => l.workMs === 0)));
  if (!atomic || !lock || lock.grabsPerSec <= 0) return [];
  // Only the correct single locks are compared (a segmented lock splits the stock, a wrong one skips the wait): the sentence says so.
  const text =
    'With nothing to protect between read and write, one conditional statement beats every correct lock on one ' +
    `stock row that ran: db-atomic ${num(atomic.grabsPerSec)} grabs/s against ${num(lock.grabsPerSec)} for the ` +
    `fastest of them, ${lock.strategy} (${num(atomic.grabsPerSec / lock.grabsPerSec, 1)}×).`;
  const held = atomic.grabsPerSec > lock.grabsPerSec;
  return [lesson('atomic-beats-locks', text, held, `${rate(atomic)} ≤ ${rate(lock)}`, titles.throughput(0))];
}

/** How far a rate may be from one section after another (1000 / (section + hand-off)) and still be "within" it. */
const SERIAL_TOLERANCE = 0.05;

/**
 * With work inside, a single lock runs one section after another: its rate within 5% of
 * 1000 / (section + hand-off), and no faster than 1000 / workMs.
 */
function lockSerialises(run: Run): Lesson[] {
  const load = run.loads.find((l) => l.workMs > 0);
  const locks = singleLocks(load);
  const best = fastest(locks);
  if (!load || !best) return [];
  const cap = 1000 / load.workMs;
  const overlapped = locks.find((r) => r.audit.maxConcurrentHolders > 1);
  const { meanSectionMs: section, meanGapMs: gap } = best.utilisation;
  const serial = 1000 / (section + gap);
  const off = Math.abs(best.grabsPerSec - serial);
  const close = off <= serial * SERIAL_TOLERANCE;
  const text =
    `With ${load.workMs} ms of work inside the section, one lock serialises every buyer: the best, ` +
    `${best.strategy}, ran ${num(best.grabsPerSec)} grabs/s, within ${num(SERIAL_TOLERANCE * 100)}% of 1000 / (${num(section, 1)} ms in ` +
    `the section + ${num(gap, 1)} ms of hand-off) = ${num(serial)}, ` +
    `and no lock passed 1000 / ${load.workMs} = ${num(cap)}.`;
  const notHeld = overlapped
    ? `${overlapped.strategy} had ${overlapped.audit.maxConcurrentHolders} holders at once, 1 at most expected`
    : best.grabsPerSec > cap
      ? `${rate(best)} > 1000 / ${load.workMs} = ${num(cap)} grabs/s`
      : `${rate(best)} is ${num((off / serial) * 100)}% from 1000 / (${num(section, 1)} + ${num(gap, 1)}) = ${num(serial)}`;
  const held = !overlapped && best.grabsPerSec <= cap && close;
  return [lesson('one-lock-serialises', text, held, notHeld, titles.throughput(load.workMs))];
}

function segmentsSellOutFaster(run: Run): Lesson[] {
  const race = run.sellOut;
  const [single, split] = race ? [medianRun(race, 'owner-checked'), medianRun(race, 'segmented')] : [];
  if (!race || !single || !split || split.sellOutMs <= 0) return [];
  const text =
    `Split into ${split.segments} segments with a lock each, ${race.stock} units sold out ` +
    `${num(single.sellOutMs / split.sellOutMs, 1)}× faster than under one lock: ${num(split.sellOutMs)} ms ` +
    `against ${num(single.sellOutMs)} ms for owner-checked (workMs ${race.workMs}).`;
  const soldOut = single.stockLeft === 0 && split.stockLeft === 0;
  const notHeld = soldOut
    ? `segmented ${num(split.sellOutMs)} ms ≥ owner-checked ${num(single.sellOutMs)} ms`
    : `stock left: segmented ${split.stockLeft}, owner-checked ${single.stockLeft}`;
  const held = soldOut && split.sellOutMs < single.sellOutMs;
  return [lesson('segments-sell-out-faster', text, held, notHeld, titles.sellOut)];
}

/** How many times fewer commits per grant coalescing must spend than one statement per grant, at least. */
const COALESCING_FACTOR = 2;

/**
 * Coalescing exists to spend one commit on many grants: judged on commits per grant as PostgreSQL
 * counts them, db-batched against db-atomic on the same load. The rates are shown against the pg
 * hot row ceiling (one commit per grant), not judged: on two cores they trade places run to run.
 */
function coalescing(run: Run): Lesson[] {
  const [batched, atomic] = [find(run, 0, 'db-batched'), find(run, 0, 'db-atomic')];
  const hotRow = run.ceilings.pgHotRowPerSec;
  const [b, a] = [batched, atomic].map((r) => r && commitsPerGrant(r));
  if (!batched || !atomic || !b || !a || hotRow <= 0) return [];
  const text =
    `Coalescing spends one commit on many grants: db-batched committed ${num(b, 2)} times per grant ` +
    `(${num(1 / b, 1)} grants per commit), db-atomic ${num(a, 2)}, as PostgreSQL's transaction ids count them ` +
    `(workMs 0). Where durable commits bound the rate (one hot row alone: ${num(hotRow)} commits/s here), ` +
    `coalescing lifts that bound ${num(a / b, 1)}×. This run's rates: db-atomic ${num(atomic.grabsPerSec)} grabs/s, ` +
    `db-batched ${num(batched.grabsPerSec)}.`;
  const held = b * COALESCING_FACTOR <= a;
  const notHeld = `${num(b, 2)} commits per grant against ${num(a, 2)}, ${COALESCING_FACTOR}× fewer expected`;
  return [lesson('coalescing-fewer-commits', text, held, notHeld, titles.commits(0))];
}

/**
 * A sold-out answer takes one path whatever the strategy: the grab POST, answered from memory.
 * Read under the last load, as the ceilings are read after the loads: the first rounds of a fresh
 * stack run cold and would weigh on the median.
 */
function soldOutCostsOneRequest(run: Run): Lesson[] {
  const last = run.loads.at(-1);
  const rates = (last?.results ?? []).flatMap((r) => (r.soldOut ? [r.soldOut.perSec] : [])).sort((a, b) => a - b);
  const [http, median] = [run.ceilings.httpPerSec, lowerMedian(rates)];
  if (median === undefined || http <= 0) return [];
  const text =
    `Turning away a buyer of a sold-out coupon costs about one HTTP request: ${num(median)} answers/s ` +
    `(median of the ${rates.length} sold-out rounds at workMs ${last?.workMs}, the last load) against ` +
    `${num(http)}/s for the HTTP stack alone.`;
  // "About one": within a factor of two either way.
  const held = median >= http / 2 && median <= http * 2;
  const notHeld = `${num(median)}/s against http ${num(http)}/s`;
  return [lesson('sold-out-costs-one-request', text, held, notHeld, titles.soldOutColumn)];
}

/** The lessons of a run, those whose strategies ran, in teaching order (at most 8). */
export function lessonsOf(run: Run): Lesson[] {
  return [
    ...wrongBaselines(run),
    ...atomicBeatsLocks(run),
    ...lockSerialises(run),
    ...segmentsSellOutFaster(run),
    ...coalescing(run),
    ...(run.slowDb ? slowDbLesson(run.slowDb) : []),
    ...soldOutCostsOneRequest(run),
  ];
}
