import { lesson, titles } from '../report/evidence';
import { num } from '../../tools/report/format';
import type { Lesson } from '../types';
import type { SlowDbResult, SlowDbRun } from './slow-db-round';

/** The share of the stall a buyer who waits for the database must have waited (p99) for the stall to count. */
const STALL_REACH = 0.5;
/** How many times shorter the stream's p99 wait must be than the shortest of the designs that wait. */
const SHAVE_FACTOR = 4;

// `stalled` is null when no buyer arrived while the row was held: no wait to compare, so the lesson cannot hold.
const p99 = (r: SlowDbRun) => r.stalled?.p99 ?? NaN;
const waits = ({ stalled: s, strategy }: SlowDbRun) =>
  s ? `p50 ${num(s.p50)} / p99 ${num(s.p99)} ms under ${strategy}` : `no wait measured under ${strategy}`;

/** Async orders keep the buyer's wait short while the database stalls: the stream against the designs that wait for it. */
export function slowDbLesson(result: SlowDbResult): Lesson[] {
  const stream = result.runs.find((r) => r.strategy === 'redis-stream');
  const waiting = result.runs.filter((r) => r !== stream);
  if (!stream || waiting.length === 0) return [];
  const shortest = waiting.reduce((a, b) => (p99(a) <= p99(b) ? a : b));
  const unreached = waiting.find((r) => p99(r) < result.stallMs * STALL_REACH);
  const text =
    `When PostgreSQL stalls, a buyer whose answer waits for the database waits with it: with the stock row ` +
    `held for ${num(result.stallMs)} ms, buyers who arrived meanwhile waited ${waiting.map(waits).join(' and ')}, ` +
    `against ${waits(stream)}, which answers once Redis took the order. Its orders are durable only once ` +
    `the database is back: every order that arrived before the release was a grant row ` +
    `${num(stream.caughtUpMs)} ms after it, ${waiting.map((r) => `${num(r.caughtUpMs)} ms under ${r.strategy}`).join(' and ')}.`;
  const unmeasured = result.runs.find((r) => !r.stalled);
  const notHeld = unmeasured
    ? `${unmeasured.strategy}: no buyer arrived while the row was held`
    : !stream.correct
      ? 'redis-stream: not every buyer was accepted and became a grant row'
      : unreached
        ? `${unreached.strategy} p99 ${num(p99(unreached))} ms < ${STALL_REACH} × the ${num(result.stallMs)} ms stall`
        : `redis-stream p99 ${num(p99(stream))} ms > ${shortest.strategy}'s ${num(p99(shortest))} / ${SHAVE_FACTOR}`;
  const held = !unmeasured && stream.correct && !unreached && p99(stream) * SHAVE_FACTOR <= p99(shortest);
  return [lesson('orders-ride-out-a-slow-database', text, held, notHeld, titles.slowDb)];
}
