import type { StatusCounts } from '../types';
import { classify, countStatus, emptyStatusCounts, errorCode, turnedAwayUnserved } from './status-counts';

const body = (code: string) => JSON.stringify({ code, message: 'm' });

describe('classify', () => {
  it('tells the three 409s apart by their code', () => {
    expect(classify(409, '{"code":"STOCK.SOLD_OUT","message":"sold out"}')).toBe('soldOut');
    expect(classify(409, '{"code":"GRANT.DUPLICATE","message":"already"}')).toBe('duplicate');
    expect(classify(409, '{"code":"FENCE.REJECTED"}')).toBe('fenceRejected');
  });

  it('buckets grants, 429s and 503s the contract allows a grab', () => {
    expect(classify(200, '{"granted":true}')).toBe('granted');
    expect(classify(429, body('LOCK.TIMEOUT'))).toBe('lockTimeout');
    expect(classify(429, body('STOCK.CONTENDED'))).toBe('lockTimeout');
    expect(classify(503, body('LOCK.LOST'))).toBe('unavailable');
    expect(classify(503, body('STOCK.COMMIT_ABORTED'))).toBe('unavailable');
    expect(classify(503, body('DEPENDENCY.UNAVAILABLE'))).toBe('unavailable');
  });

  it("counts the design's own success answer as granted, the other one outside the contract", () => {
    const accepted = '{"accepted":true,"orderId":"1-0"}';
    expect(classify(202, accepted, 202)).toBe('granted');
    expect(classify(200, '{"granted":true}', 202)).toBe('outsideContract');
    expect(classify(202, accepted)).toBe('outsideContract');
    expect(classify(409, body('STOCK.SOLD_OUT'), 202)).toBe('soldOut');
  });

  it.each<[string, number, string]>([
    ['a 500 from the API', 500, body('INTERNAL')],
    ['a 500 with no body', 500, ''],
    ['a 502 from nginx', 502, '<html><body><h1>502 Bad Gateway</h1></body></html>'],
    ['a 503 without a contract code', 503, 'not json'],
    ['a 400 to a well-formed grab', 400, body('REQUEST.INVALID')],
    ['a 409 with an unknown code', 409, body('SOMETHING.ELSE')],
    ['a 409 without a code', 409, '{"message":"conflict"}'],
    ['a 404', 404, body('COUPON.NOT_FOUND')],
    ['a contract code under the wrong status', 503, body('LOCK.TIMEOUT')],
    ['a grab code under a 409 it does not belong to', 409, body('LOCK.LOST')],
  ])('puts %s outside the contract', (_, status, text) => {
    expect(classify(status, text)).toBe('outsideContract');
  });
});

describe('errorCode', () => {
  it('reads the code of a contract error body, nothing else', () => {
    expect(errorCode(body('STOCK.SOLD_OUT'))).toBe('STOCK.SOLD_OUT');
    expect(errorCode('{"code":42}')).toBeUndefined();
    expect(errorCode('null')).toBeUndefined();
    expect(errorCode('<html>')).toBeUndefined();
  });
});

describe('countStatus', () => {
  it('adds each answer to its bucket', () => {
    const counts = emptyStatusCounts();
    countStatus(counts, 200, '');
    countStatus(counts, 200, '');
    countStatus(counts, 409, '{"code":"STOCK.SOLD_OUT"}');
    countStatus(counts, 429, body('LOCK.TIMEOUT'));
    countStatus(counts, 502, 'Bad Gateway');
    countStatus(counts, 500, body('INTERNAL'));
    expect(counts).toEqual({
      granted: 2,
      soldOut: 1,
      duplicate: 0,
      fenceRejected: 0,
      lockTimeout: 1,
      unavailable: 0,
      outsideContract: 2,
      errors: 0,
      timeouts: 0,
    });
  });
});

describe('turnedAwayUnserved', () => {
  it('adds 429s, 503s, out-of-contract answers and requests with no answer, not grants or sold-out answers', () => {
    const s: StatusCounts = {
      granted: 1000,
      soldOut: 700,
      duplicate: 300,
      fenceRejected: 0,
      lockTimeout: 1,
      unavailable: 2,
      outsideContract: 4,
      errors: 8,
      timeouts: 16,
    };
    expect(turnedAwayUnserved(s)).toBe(31);
    expect(turnedAwayUnserved(emptyStatusCounts())).toBe(0);
  });
});
