import type { QueryResultRow } from 'pg';
import type { RunQuery } from '../database/stock-database';
import { CommitAbortedError } from '../stock.errors';
import { readModifyWrite } from './read-modify-write';

// The section's order with a fencing token that comes late (a holder handed the lock starts
// before its hand-off script has drawn the token): the token, then the fenced read, work, write.
const req = { couponId: 1, userId: 'u', strategy: 'fenced', replica: 'api-1' };

/** A statement runner that answers the read with one row and the write with one remaining. */
function fakeDatabase() {
  const statements: { name?: string; values?: unknown[] }[] = [];
  const query = ((_text: string, values?: unknown[], name?: string) => {
    statements.push({ name, values });
    const rows = name === 'read-stock-fenced' ? [{ segment: 0, stock: 5, version: 0, at: 'now' }] : [{ remaining: 4 }];
    return Promise.resolve(rows as unknown as QueryResultRow[]);
  }) as RunQuery;
  return { query, statements };
}

describe('readModifyWrite with a fencing token', () => {
  it('waits for a pending token before it reads, then reads and writes with it', async () => {
    const db = fakeDatabase();
    let drawn!: (token: number) => void;
    const fenceToken = new Promise<number>((resolve) => (drawn = resolve));
    const granted = readModifyWrite(db.query, req, { work: () => Promise.resolve(), fenceToken });
    await new Promise((resolve) => setImmediate(resolve)); // every step the section could take by itself
    expect(db.statements).toEqual([]);
    drawn(42);
    await expect(granted).resolves.toEqual({ segment: 0, remaining: 4 });
    expect(db.statements.map((s) => s.name)).toEqual(['read-stock-fenced', 'write-back']);
    expect(db.statements[0].values?.[2]).toBe(42);
    expect(db.statements[1].values?.[7]).toBe(42);
  });

  it('reads and writes nothing when the token never comes: the commit is aborted', async () => {
    const db = fakeDatabase();
    const lost = new Error('the hand-off found the lock gone');
    const fenceToken = Promise.reject(lost);
    const granted = readModifyWrite(db.query, req, { work: () => Promise.resolve(), fenceToken });
    await expect(granted).rejects.toBeInstanceOf(CommitAbortedError);
    await expect(granted).rejects.toMatchObject({ cause: lost });
    expect(db.statements).toEqual([]);
  });
});
