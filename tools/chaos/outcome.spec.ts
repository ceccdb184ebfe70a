import { judge, label, type Outcome } from './outcome';

const answer = (status: number, code?: string): Outcome => ({ kind: 'answer', status, code });
const broken = (reason: string): Outcome => ({ kind: 'broken', reason });
const timeout: Outcome = { kind: 'timeout' };

describe('judge', () => {
  it.each([
    [answer(200), false, 'granted'],
    [answer(409, 'STOCK.SOLD_OUT'), false, 'refused'],
    [answer(409, 'GRANT.DUPLICATE'), false, 'refused'],
    [answer(409, 'FENCE.REJECTED'), false, 'clear'], // retryable: after recovery it means not served
    [answer(429, 'LOCK.TIMEOUT'), false, 'clear'],
    [answer(503, 'DEPENDENCY.UNAVAILABLE'), false, 'clear'],
    [answer(503, 'LOCK.LOST'), false, 'clear'],
    [answer(500, 'INTERNAL'), false, 'unclear'],
    [answer(500, 'INTERNAL'), true, 'unclear'],
    [answer(503), false, 'unclear'], // a 503 without a contract body (nginx's own) is not the API's answer
    [answer(502), false, 'unclear'],
    [answer(502), true, 'died-with-replica'],
    [broken('ECONNRESET'), false, 'unclear'],
    [broken('ECONNRESET'), true, 'died-with-replica'],
    [timeout, false, 'unclear'],
    [timeout, true, 'unclear'],
  ])('%j (in flight at a kill: %s) is %s', (outcome, inFlight, verdict) => {
    expect(judge(outcome, inFlight)).toBe(verdict);
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
