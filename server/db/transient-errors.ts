import { errorCodeOf } from './error-code.js';

/**
 * PostgreSQL's SQLSTATEs for a transaction that failed only because of
 * another one running at the same time: serialization_failure and
 * deadlock_detected. Run again, it succeeds.
 */
const POSTGRES_TRANSIENT = new Set(['40001', '40P01']);

/**
 * True when `error` says the work failed because of concurrent work, not
 * because of the work itself: the same work run again may succeed. SQLite's
 * SQLITE_BUSY (and its extended codes) means another process held the write
 * lock for longer than the busy timeout.
 */
export function isTransient(error: unknown): boolean {
  const code = errorCodeOf(error);
  if (code === undefined) return false;
  return POSTGRES_TRANSIENT.has(code) || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_');
}
