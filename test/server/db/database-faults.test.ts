import { describe, expect, it } from 'vitest';
import { isConnectionLost, isDatabaseUnavailable, isStorageFull } from '../../../server/db/database-faults.js';

const coded = (code: string, message = 'database error') => Object.assign(new Error(message), { code });

// What the drivers throw, as they throw it; the fault tests (connection-loss, storage-full) meet the real ones.
describe('database faults', () => {
  it.each([
    ['a session ended by a fast shutdown (57P01)', coded('57P01', 'terminating connection due to administrator command')],
    ['a session ended by a crashed backend (57P02)', coded('57P02')],
    ['a server still recovering (57P03)', coded('57P03', 'the database system is in recovery mode')],
    ['a connection exception (class 08)', coded('08006')],
    ['too many connections (53300)', coded('53300')],
    ['a refused socket', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset socket', coded('ECONNRESET')],
    ["node-postgres's dropped connection", new Error('Connection terminated unexpectedly')],
    ["node-postgres's client-side query timeout", new Error('Query read timeout')],
    ["pg-pool's connection timeout", new Error('timeout exceeded when trying to connect')],
  ])('%s is a lost connection and the database unavailable', (_name, error) => {
    expect(isConnectionLost(error)).toBe(true);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isStorageFull(error)).toBe(false);
  });

  it.each([
    ['a statement timeout (57014)', coded('57014', 'canceling statement due to statement timeout')],
    ['a lock timeout (55P03)', coded('55P03')],
    ["SQLite's write lock held past the busy timeout", coded('SQLITE_BUSY')],
    ['a SQLite disk I/O error', coded('SQLITE_IOERR_WRITE')],
  ])('%s is the database unavailable on a connection still usable', (_name, error) => {
    expect(isConnectionLost(error)).toBe(false);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['SQLITE_FULL', coded('SQLITE_FULL', 'database or disk is full')],
    ["PostgreSQL's disk_full (53100)", coded('53100')],
    ['an fsync with no space left', coded('ENOSPC')],
    ['a quota exceeded', coded('EDQUOT')],
  ])('%s is storage full', (_name, error) => {
    expect(isStorageFull(error)).toBe(true);
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it.each([
    ['a unique violation (23505)', coded('23505')],
    ['a SQLite constraint', coded('SQLITE_CONSTRAINT_UNIQUE')],
    ['a deadlock (40P01), which group commit runs again', coded('40P01')],
    ['a plain bug', new TypeError('undefined is not a function')],
    ['an int8 too large for a number', new RangeError('int8 value 9007199254740993 does not fit a JavaScript number')],
  ])('%s is none of them', (_name, error) => {
    expect(isConnectionLost(error)).toBe(false);
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(isStorageFull(error)).toBe(false);
  });
});
