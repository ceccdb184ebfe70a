import { isOrderDataError } from './pg-errors';
import { StockUnavailableError } from './stock.errors';

/** A node-postgres error as the driver throws it, or as TypeORM wraps it. */
const pgError = (code: string) => Object.assign(new Error(`SQLSTATE ${code}`), { code });
const wrapped = (code: string) => Object.assign(new Error('QueryFailedError'), { driverError: pgError(code) });

describe('isOrderDataError: only the data a statement wrote is the fault of the order', () => {
  it.each([
    ['22001', 'value too long'],
    ['22P02', 'invalid text representation'],
    ['23505', 'unique violation'],
    ['23514', 'check violation'],
  ])('%s (%s) belongs to the order', (code) => {
    expect([isOrderDataError(pgError(code)), isOrderDataError(wrapped(code))]).toEqual([true, true]);
  });

  it.each([
    ['53100', 'disk full'],
    ['53300', 'too many clients'],
    ['25006', 'read-only transaction (after a failover)'],
    ['58030', 'I/O error'],
    ['40P01', 'deadlock'],
    ['40001', 'serialization failure'],
    ['55P03', 'lock not available (lock timeout)'],
    ['57P01', 'admin shutdown'],
    ['57014', 'statement timeout'],
    ['08006', 'connection failure'],
    ['42P01', 'undefined table'],
  ])('%s (%s) belongs to the database, never to the order', (code) => {
    expect([isOrderDataError(pgError(code)), isOrderDataError(wrapped(code))]).toEqual([false, false]);
  });

  it('an error without a SQLSTATE (connection lost, client timeout, unavailable) belongs to the database', () => {
    const errors = [
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      new StockUnavailableError({ cause: pgError('22001') }),
      undefined,
    ];
    expect(errors.map(isOrderDataError)).toEqual([false, false, false, false]);
  });
});
