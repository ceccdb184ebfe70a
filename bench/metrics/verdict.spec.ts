import type { Audit } from '@app/contract';
import type { Reconciliation, StatusCounts, VerdictFlag } from '../types';
import { classify, emptyStatusCounts, turnedAwayUnserved, verdict, type VerdictInput } from './verdict';
import { exactAudit } from '../../test/fixtures/audit';

/** 100 of 100 sold to 100 buyers, 50 more told it sold out, every 200 a grant row. */
const clean: Audit = exactAudit(100);
const soldOutRound: StatusCounts = { ...emptyStatusCounts(), granted: 100, soldOut: 50 };
const reconciled: Reconciliation = { grantedSeen: 100, grantsInDb: 100, matches: true, unanswered: 0 };

const judge = (overrides: Partial<VerdictInput> = {}) =>
  verdict({
    audit: clean,
    statuses: soldOutRound,
    reconciliation: reconciled,
    promisesExclusion: true,
    expectedFlags: [],
    ...overrides,
  });

describe('verdict', () => {
  it('is correct with no oversell, no lost update, one holder, no buyer turned away unserved and every answer reconciled', () => {
    expect(judge()).toEqual({ correct: true, flags: [], label: 'correct', expected: [], asExpected: true });
  });

  it('reads UNDERSOLD when a refused fencing token turned a buyer away with stock left', () => {
    const v = judge({
      audit: { ...clean, grants: 99, stock: 1 },
      statuses: { ...soldOutRound, granted: 99, fenceRejected: 1 },
      reconciliation: { ...reconciled, grantedSeen: 99, grantsInDb: 99 },
    });
    expect(v.flags).toEqual(['UNDERSOLD']);
  });

  it('names every failure at once, in a fixed order', () => {
    const v = judge({
      audit: { ...clean, grants: 130, stock: 40, oversold: 30, lostUpdates: 70, maxConcurrentHolders: 3 },
      statuses: { ...soldOutRound, granted: 129, lockTimeout: 4, outsideContract: 2 },
      reconciliation: { grantedSeen: 129, grantsInDb: 130, matches: false, unanswered: 0 },
    });
    expect(v.correct).toBe(false);
    expect(v.flags).toEqual(['OVERSOLD', 'LOST UPDATES', 'TWO HOLDERS', 'UNDERSOLD', 'FAILED', 'NOT RECONCILED']);
    expect(v.label).toBe('OVERSOLD + LOST UPDATES + TWO HOLDERS + UNDERSOLD + FAILED + NOT RECONCILED');
  });

  it('reports lost updates without oversell (stock not yet exhausted, nobody turned away)', () => {
    const v = judge({
      audit: { ...clean, grants: 60, stock: 70, lostUpdates: 30 },
      statuses: { ...soldOutRound, soldOut: 0 },
    });
    expect(v.label).toBe('LOST UPDATES');
  });

  it('counts overlapping holders only against strategies that promise exclusion', () => {
    const overlapping = { ...clean, maxConcurrentHolders: 4 };
    expect(judge({ audit: overlapping }).label).toBe('TWO HOLDERS');
    expect(judge({ audit: overlapping, promisesExclusion: false }).correct).toBe(true);
  });

  describe('UNDERSOLD: it fails the other way too', () => {
    it('flags a round that sold nothing and answered only 429 and 503, never calls it correct', () => {
      const v = judge({
        audit: { ...clean, stock: 100, grants: 0 },
        statuses: { ...emptyStatusCounts(), lockTimeout: 120, unavailable: 30 },
        reconciliation: { grantedSeen: 0, grantsInDb: 0, matches: true, unanswered: 0 },
      });
      expect(v.correct).toBe(false);
      expect(v.flags).toEqual(['UNDERSOLD']);
      expect(v.label).toBe('UNDERSOLD');
    });

    it.each<[string, Partial<StatusCounts>]>([
      ['a 429 (lock timeout or contended)', { lockTimeout: 1 }],
      ['a 503', { unavailable: 1 }],
      ['a connection error', { errors: 1 }],
      ['a timeout', { timeouts: 1 }],
    ])('flags stock left while a buyer got %s', (_, turnedAway) => {
      const v = judge({
        audit: { ...clean, stock: 1, grants: 99 },
        statuses: { ...soldOutRound, granted: 99, ...turnedAway },
      });
      expect(v.flags).toContain('UNDERSOLD');
    });

    it('does not flag stock left when every buyer was served (fewer buyers than stock)', () => {
      const v = judge({
        audit: { ...clean, stock: 40, grants: 60 },
        statuses: { ...emptyStatusCounts(), granted: 60 },
        reconciliation: { grantedSeen: 60, grantsInDb: 60, matches: true, unanswered: 0 },
      });
      expect(v.label).toBe('correct');
    });

    it('does not flag 429s once the stock is gone: nobody was kept from a coupon that was left', () => {
      expect(judge({ statuses: { ...soldOutRound, lockTimeout: 25, unavailable: 3 } }).label).toBe('correct');
    });

    it('flags a sold-out answer while stock was left: a false sold out is an undersell', () => {
      const v = judge({
        audit: { ...clean, stock: 5, grants: 95 },
        statuses: { ...emptyStatusCounts(), granted: 95, soldOut: 4, duplicate: 1 },
      });
      expect(v.flags).toEqual(['UNDERSOLD']);
    });

    it('does not flag a duplicate answer with stock left, nor a sold-out answer once every unit was granted', () => {
      const leftOver = { ...clean, stock: 5, grants: 95 };
      expect(judge({ audit: leftOver, statuses: { ...emptyStatusCounts(), granted: 95, duplicate: 3 } }).label).toBe(
        'correct',
      );
      // Lost updates leave stock of record that was in fact sold: no unit was left unsold.
      const lost = { ...clean, stock: 5, grants: 100, lostUpdates: 5 };
      expect(judge({ audit: lost, statuses: { ...soldOutRound, granted: 100 } }).flags).toEqual(['LOST UPDATES']);
    });
  });

  it('FAILED: any answer outside the contract, even with the stock sold exactly', () => {
    const v = judge({ statuses: { ...soldOutRound, outsideContract: 1 } });
    expect(v.flags).toEqual(['FAILED']);
    expect(v.correct).toBe(false);
  });

  it('FAILED and UNDERSOLD together when out-of-contract answers left stock behind', () => {
    const v = judge({
      audit: { ...clean, stock: 3, grants: 97 },
      statuses: { ...soldOutRound, granted: 97, outsideContract: 3 },
    });
    expect(v.flags).toEqual(['UNDERSOLD', 'FAILED']);
  });

  it('NOT RECONCILED: the 200s seen differ from the grant rows', () => {
    const v = judge({ reconciliation: { grantedSeen: 99, grantsInDb: 100, matches: false, unanswered: 1 } });
    expect(v.flags).toEqual(['NOT RECONCILED']);
    expect(v.label).toBe('NOT RECONCILED');
  });

  describe('asExpected', () => {
    const broken = { ...clean, grants: 130, stock: 40, oversold: 30, lostUpdates: 70 };

    it('holds when the flags are exactly the expected ones, in any order given', () => {
      const v = judge({ audit: broken, expectedFlags: ['LOST UPDATES', 'OVERSOLD'] });
      expect(v).toMatchObject({ correct: false, asExpected: true, expected: ['OVERSOLD', 'LOST UPDATES'] });
    });

    it('fails when an expected failure did not show (a baseline that came out correct)', () => {
      const v = judge({ expectedFlags: ['OVERSOLD', 'LOST UPDATES'] });
      expect(v).toMatchObject({ correct: true, asExpected: false, expected: ['OVERSOLD', 'LOST UPDATES'] });
    });

    it('fails on a flag beyond the expected ones, and on only some of them', () => {
      const extra: VerdictFlag[] = ['OVERSOLD', 'LOST UPDATES'];
      expect(judge({ audit: { ...broken, maxConcurrentHolders: 2 }, expectedFlags: extra }).asExpected).toBe(false);
      expect(judge({ audit: { ...broken, lostUpdates: 0 }, expectedFlags: extra }).asExpected).toBe(false);
    });

    it('fails for a strategy expected correct that is not', () => {
      expect(judge({ audit: broken }).asExpected).toBe(false);
    });
  });
});

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

describe('classify, counted as a round counts', () => {
  it('adds each answer to its bucket', () => {
    const counts = emptyStatusCounts();
    const answers: [number, string][] = [
      [200, ''],
      [200, ''],
      [409, '{"code":"STOCK.SOLD_OUT"}'],
      [429, body('LOCK.TIMEOUT')],
      [502, 'Bad Gateway'],
      [500, body('INTERNAL')],
    ];
    for (const [status, text] of answers) counts[classify(status, text)] += 1;
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
