import { classify, countStatus, emptyStatusCounts } from './status-counts';

describe('classify', () => {
  it('tells the two 409s apart by their code', () => {
    expect(classify(409, '{"code":"STOCK.SOLD_OUT","message":"sold out"}')).toBe('soldOut');
    expect(classify(409, '{"code":"GRANT.DUPLICATE","message":"already"}')).toBe('duplicate');
    expect(classify(409, '{"code":"FENCE.REJECTED"}')).toBe('fenceRejected');
    expect(classify(409, '{"code":"SOMETHING.ELSE"}')).toBe('otherClientError');
  });

  it('buckets grants, lock timeouts, server errors and other client errors', () => {
    expect(classify(200, '{"granted":true}')).toBe('granted');
    expect(classify(429, '{"code":"LOCK.TIMEOUT"}')).toBe('lockTimeout');
    expect(classify(503, 'not json')).toBe('serverError');
    expect(classify(500, '')).toBe('serverError');
    expect(classify(400, '{"code":"REQUEST.INVALID"}')).toBe('otherClientError');
  });
});

describe('countStatus', () => {
  it('adds each answer to its bucket', () => {
    const counts = emptyStatusCounts();
    countStatus(counts, 200, '');
    countStatus(counts, 200, '');
    countStatus(counts, 409, '{"code":"STOCK.SOLD_OUT"}');
    expect(counts).toMatchObject({ granted: 2, soldOut: 1, duplicate: 0, lockTimeout: 0 });
  });
});
