import { slowDbLesson } from './slow-db-lesson';
import { slowDb, slowDbRun } from '../../test/fixtures/slow-db-round';
import type { SlowDbRun } from './slow-db-round';

describe('slowDbLesson', () => {
  const atomic = slowDbRun('db-atomic', 480, 990);
  const lua = slowDbRun('redis-lua', 500, 1010);
  const judge = (stream: SlowDbRun, waiting = [atomic, lua]) => slowDbLesson(slowDb([...waiting, stream]))[0];

  it('states each design’s wait during the stall and how soon the backlog was durable', () => {
    expect(judge(slowDbRun('redis-stream', 12, 40))).toEqual({
      id: 'orders-ride-out-a-slow-database',
      text:
        'When PostgreSQL stalls, a buyer whose answer waits for the database waits with it: with the stock row ' +
        'held for 1,000 ms, buyers who arrived meanwhile waited p50 480 / p99 990 ms under db-atomic and p50 500 / ' +
        'p99 1,010 ms under redis-lua, against p50 12 / p99 40 ms under redis-stream, which answers once Redis ' +
        'took the order. Its orders are durable only once the database is back: every order that arrived ' +
        'before the release was a grant row 140 ms after it, 95 ms under db-atomic and 95 ms under redis-lua.',
      held: true,
      shownBy: "Each buyer's wait while PostgreSQL stalls",
    });
  });

  it('holds while the stream waits at most a quarter of the shortest waiting design', () => {
    // db-atomic's 990 ms is the shortest: a quarter is 247.5 ms.
    expect(judge(slowDbRun('redis-stream', 12, 247.5)).held).toBe(true);
    expect(judge(slowDbRun('redis-stream', 12, 248))).toMatchObject({
      held: false,
      notHeld: "redis-stream p99 248 ms > db-atomic's 990 / 4",
    });
  });

  it('needs the stall to reach the buyers who wait for the database: half of it at p99', () => {
    const stream = slowDbRun('redis-stream', 2, 10);
    expect(judge(stream, [slowDbRun('db-atomic', 300, 500), lua]).held).toBe(true);
    expect(judge(stream, [slowDbRun('db-atomic', 300, 499), lua])).toMatchObject({
      held: false,
      notHeld: 'db-atomic p99 499 ms < 0.5 × the 1,000 ms stall',
    });
  });

  it('does not hold when a buyer was not accepted or its order never became a grant', () => {
    expect(judge(slowDbRun('redis-stream', 12, 40, { correct: false }))).toMatchObject({
      held: false,
      notHeld: 'redis-stream: not every buyer was accepted and became a grant row',
    });
  });

  it('does not hold when no buyer arrived while the row was held: no wait to compare', () => {
    expect(judge(slowDbRun('redis-stream', 12, 40, { stalled: null }))).toMatchObject({
      held: false,
      notHeld: 'redis-stream: no buyer arrived while the row was held',
    });
    expect(judge(slowDbRun('redis-stream', 12, 40), [{ ...atomic, stalled: null }, lua])).toMatchObject({
      held: false,
      notHeld: 'db-atomic: no buyer arrived while the row was held',
    });
  });

  it('says nothing without the stream, or without a design that waits', () => {
    expect(slowDbLesson(slowDb([atomic, lua]))).toEqual([]);
    expect(slowDbLesson(slowDb([slowDbRun('redis-stream', 1, 2)]))).toEqual([]);
  });
});
