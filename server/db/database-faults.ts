import { errorCodeOf } from './error-code.js';

/**
 * PostgreSQL's SQLSTATEs for a session it ended or would not begin:
 * admin_shutdown (a fast shutdown, pg_terminate_backend), crash_shutdown (a
 * backend crashed and the server restarts), cannot_connect_now (starting up or
 * in recovery), too_many_connections. Class 08, connection exception, too.
 */
const POSTGRES_SESSION_ENDED = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * PostgreSQL's SQLSTATEs for a statement given up after waiting too long:
 * query_canceled (statement_timeout) and lock_not_available (lock_timeout).
 * The session itself is fine.
 */
const POSTGRES_TIMED_OUT = new Set(['57014', '55P03']);

/** Socket errors of a connection refused, reset or never made (Node's `code`). */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * node-postgres's and pg-pool's errors for a connection lost, never made or
 * given up on (its client-side query_timeout): they carry no code, only these
 * messages, unchanged for years.
 */
const PG_CONNECTION_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

/** A disk with no room left: SQLite's SQLITE_FULL, PostgreSQL's disk_full, an fsync's ENOSPC or EDQUOT. */
const STORAGE_FULL = new Set(['SQLITE_FULL', '53100', 'ENOSPC', 'EDQUOT']);

/**
 * True when the connection `error` happened on can no longer be used: the
 * server ended the session, the socket failed, or no answer came in time (a
 * frozen server leaves the connection waiting for it). Such a connection goes
 * back to the pool with the error, so the pool discards it.
 */
export function isConnectionLost(error: unknown): boolean {
  const code = errorCodeOf(error);
  if (code !== undefined) return code.startsWith('08') || POSTGRES_SESSION_ENDED.has(code) || SOCKET_ERRORS.has(code);
  return error instanceof Error && PG_CONNECTION_MESSAGES.has(error.message);
}

/**
 * True when the database could not be reached or did not answer in time, so
 * the work failed through no fault of its own and may succeed later: a lost
 * or refused connection, a statement or lock wait given up (PostgreSQL), the
 * write lock held elsewhere past the busy timeout or a disk I/O error
 * (SQLite). Answered 503 database_unavailable.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isConnectionLost(error)) return true;
  const code = errorCodeOf(error);
  if (code === undefined) return false;
  return POSTGRES_TIMED_OUT.has(code) || /^SQLITE_(BUSY|IOERR|CANTOPEN)(_|$)/.test(code);
}

/** True when the database's disk is full: nothing new can be stored. Answered 503 storage_full. */
export function isStorageFull(error: unknown): boolean {
  const code = errorCodeOf(error);
  return code !== undefined && STORAGE_FULL.has(code);
}

/**
 * True for a failure of the database itself rather than of one piece of work:
 * every piece of work would meet it now, so none is worth running again alone.
 */
export function isDatabaseFault(error: unknown): boolean {
  return isDatabaseUnavailable(error) || isStorageFull(error);
}
