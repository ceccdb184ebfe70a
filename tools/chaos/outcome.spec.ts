import { judge, label, outcomeOf, type Outcome } from './outcome';

const answer = (status: number, code?: string): Outcome => ({ kind: 'answer', status, code });
const broken = (reason: string): Outcome => ({ kind: 'broken', reason });
const timeout: Outcome = { kind: 'timeout' };

describe('judge', () => {
  const victim = '127.0.0.1:23102';
  const diedWithVictim = (upstream: string | undefined) => upstream === victim;
  const noKill = () => false;
  const upstream = (status: number, from: string): Outcome => ({ kind: 'answer', status, upstream: from });
  it.each([
    [answer(200), noKill, 'granted'],
    [answer(202), noKill, 'accepted'], // redis-stream: a promise, judged once the stream drained
    [answer(409, 'STOCK.SOLD_OUT'), noKill, 'refused'],
    [answer(409, 'GRANT.DUPLICATE'), noKill, 'refused'],
    [answer(409, 'FENCE.REJECTED'), noKill, 'clear'], // retryable: after recovery it means not served
    [answer(409, 'HOLD.EXPIRED'), noKill, 'unclear'], // a 409 no grab should give: not excused by its status
    [answer(409, 'LOCK.LOST'), noKill, 'unclear'],
    [answer(409), noKill, 'unclear'],
    [answer(429, 'LOCK.TIMEOUT'), noKill, 'clear'],
    [answer(503, 'DEPENDENCY.UNAVAILABLE'), noKill, 'clear'],
    [answer(503, 'LOCK.LOST'), noKill, 'clear'],
    [answer(500, 'INTERNAL'), noKill, 'unclear'],
    [answer(500, 'INTERNAL'), diedWithVictim, 'unclear'],
    [answer(503), noKill, 'unclear'], // a 503 without a contract body (nginx's own) is not the API's answer
    [answer(502), noKill, 'unclear'],
    [upstream(502, victim), diedWithVictim, 'died-with-replica'],
    [upstream(502, '127.0.0.1:23101'), diedWithVictim, 'unclear'], // another replica failed: not excused
    [broken('ECONNRESET'), diedWithVictim, 'unclear'], // nginx always answers: a broken connection is not the kill's
    [timeout, noKill, 'unclear'],
    [timeout, diedWithVictim, 'unclear'],
  ])('%j is judged %#', (outcome, diedWith, verdict) => {
    expect(judge(outcome, diedWith)).toBe(verdict);
  });
});

describe('label', () => {
  it('names status and code, or what broke', () => {
    expect(label(answer(503, 'DEPENDENCY.UNAVAILABLE'))).toBe('503 DEPENDENCY.UNAVAILABLE');
    expect(label(answer(502))).toBe('502');
    expect(label({ kind: 'broken', reason: 'UND_ERR_SOCKET' })).toBe('UND_ERR_SOCKET');
    expect(label({ kind: 'timeout' })).toBe('timeout');
  });
});

describe('outcomeOf', () => {
  const at = { sentAt: 0, answeredAt: 1 };
  it.each([
    [
      { status: 502, upstream: '127.0.0.1:23102' },
      { kind: 'answer', status: 502, upstream: '127.0.0.1:23102' },
    ],
    [{ status: 0, code: 'TimeoutError' }, { kind: 'timeout' }],
    [
      { status: 0, code: 'UND_ERR_SOCKET' },
      { kind: 'broken', reason: 'UND_ERR_SOCKET' },
    ],
    [{ status: 0 }, { kind: 'broken', reason: 'no answer' }],
  ])('%j → %j', (answer, outcome) => {
    expect(outcomeOf({ ...at, ...answer })).toMatchObject(outcome);
  });
});
