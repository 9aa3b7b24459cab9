import { describe, expect, it } from 'vitest';
import { isTransientDbError, transientDbError } from '../../../src/store/db-errors.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('transient database errors', () => {
  it.each(['40001', '40P01', '25P03', '57P01', '57P03', '08006', '08001', '53300', 'ECONNREFUSED', 'ECONNRESET'])('retries SQLSTATE/errno %s', (code) => {
    expect(isTransientDbError(withCode(code))).toBe(true);
  });

  it.each(['23505', '42P01', '22P02', '28P01', '23503', '08P01'])('does not retry %s (bad data, bad SQL or bad credentials)', (code) => {
    expect(isTransientDbError(withCode(code))).toBe(false);
  });

  it('retries a socket closed under a query, which node-postgres reports without a code', () => {
    expect(isTransientDbError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransientDbError(new Error('connection to the moon terminated'))).toBe(false);
    expect(isTransientDbError('Connection terminated unexpectedly')).toBe(false);
  });

  it('wraps a transient error as a retryable unavailable that keeps the cause, its text only in the detail', () => {
    const cause = withCode('57P01', 'terminating connection due to administrator command');
    const e = transientDbError(cause);
    expect(e).toMatchObject({ code: 'unavailable', retryable: true, cause });
    expect(e?.message).toBe('the database is unavailable; try again');
    expect(e?.detail).toContain('administrator command');
    expect(transientDbError(withCode('23505'))).toBeNull();
  });
});
