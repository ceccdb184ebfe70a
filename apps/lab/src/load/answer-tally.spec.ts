import type { GrabAnswer } from '@app/contract';
import { AnswerCounter } from './answer-tally';

const answer = (over: Partial<GrabAnswer>): GrabAnswer => ({
  userId: 'u',
  status: 200,
  sentAt: 0,
  answeredAt: 1,
  ...over,
});

describe('AnswerCounter', () => {
  it('counts answers by replica and code, dropped answers apart', () => {
    const counter = new AnswerCounter();
    counter.add(answer({ replica: 'api-1' }));
    counter.add(answer({ replica: 'api-1' }));
    counter.add(answer({ replica: 'api-2', status: 409, code: 'STOCK.SOLD_OUT' }));
    counter.add(answer({ replica: 'nginx', status: 502, code: 'UPSTREAM.FAILED' }));
    counter.add(answer({ status: 0, code: 'ECONNRESET' }));
    expect(counter.answered).toBe(5);
    expect(counter.snapshot()).toEqual({
      'api-1': { '200': 2 },
      'api-2': { '409 STOCK.SOLD_OUT': 1 },
      nginx: { '502 UPSTREAM.FAILED': 1 },
      none: { 'no answer (ECONNRESET)': 1 },
    });
  });

  it("tallies the room's refusal at a poll under its own code, not as a grant", () => {
    const counter = new AnswerCounter();
    counter.add(answer({ replica: 'api-1', code: 'room sold-out' }));
    expect(counter.snapshot()).toEqual({ 'api-1': { 'room sold-out': 1 } });
  });

  it('hands out copies, so a sent snapshot never changes', () => {
    const counter = new AnswerCounter();
    counter.add(answer({ replica: 'api-1' }));
    const before = counter.snapshot();
    counter.add(answer({ replica: 'api-1' }));
    expect(before).toEqual({ 'api-1': { '200': 1 } });
  });
});
