import { isOrderDataError } from './pg-errors';
import { StockUnavailableError } from './stock.errors';

/** A node-postgres error as the driver throws it, or as TypeORM wraps it. */
const pgError = (code: string) => Object.assign(new Error(`SQLSTATE ${code}`), { code });
const wrapped = (code: string) => Object.assign(new Error('QueryFailedError'), { driverError: pgError(code) });

describe('isOrderDataError: only the data a statement wrote is the fault of the order', () => {
  it.each([
    ['22001', 'value too long', true],
    ['22P02', 'invalid text representation', true],
    ['23505', 'unique violation', true],
    ['23514', 'check violation', true],
    ['53100', 'disk full', false],
    ['53300', 'too many clients', false],
    ['25006', 'read-only transaction (after a failover)', false],
    ['58030', 'I/O error', false],
    ['40P01', 'deadlock', false],
    ['40001', 'serialization failure', false],
    ['55P03', 'lock not available (lock timeout)', false],
    ['57P01', 'admin shutdown', false],
    ['57014', 'statement timeout', false],
    ['08006', 'connection failure', false],
    ['42P01', 'undefined table', false],
  ])('%s (%s) belongs to the order: %s (else to the database)', (code, _what, ofTheOrder) => {
    expect([isOrderDataError(pgError(code)), isOrderDataError(wrapped(code))]).toEqual([ofTheOrder, ofTheOrder]);
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
