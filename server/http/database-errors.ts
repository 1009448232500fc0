import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import type { ErrorCode } from '../../contract/errors.js';
import type { Clock } from '../../platform/clock.js';
import { sendError } from '../../platform/error-body.js';
import { logRequestAt } from '../../platform/fast-http/request-logger.js';
import { isDatabaseUnavailable, isStorageFull } from '../db/database-faults.js';
import { errorCodeOf } from '../db/error-code.js';

/** A database fault is logged at most once per this long, however many requests meet it. */
export const DATABASE_FAULT_LOG_INTERVAL_MS = 60_000;

/** When a client may try again after a 503 database_unavailable: a restart or failover takes seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

interface Fault {
  code: Extract<ErrorCode, 'database_unavailable' | 'storage_full'>;
  /** The answer's message: for the API's clients, never the database's own words. */
  message: string;
  /** The log line's message, for the operator. */
  logged: string;
  retryAfterSeconds?: number;
}

const UNAVAILABLE: Fault = {
  code: 'database_unavailable',
  message: 'The database is unavailable; try again shortly (a booking re-sent with the same Idempotency-Key is never made twice)',
  logged: 'database unavailable: answering 503 database_unavailable',
  retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
};

const FULL: Fault = {
  code: 'storage_full',
  message: 'The database has no room for new data; nothing was stored',
  logged: 'database storage full: answering 503 storage_full until space is freed',
};

/**
 * The database's faults as the API's 503s: a database that cannot be reached
 * or did not answer in time (a restart, a failover, a frozen host) is
 * `database_unavailable` with Retry-After, a full disk `storage_full`. Each
 * is logged at error at most once a minute, with how many answers it caused
 * since its last line and without a stack, and each request's own line is a
 * warning: an outage of a minute at a hundred requests a second is two error
 * lines, not six thousand stacks. Anything else goes on to the terminal
 * handler.
 */
export function databaseErrors(logger: Logger, clock: Clock): ErrorRequestHandler {
  const lastLogged = new Map<Fault, { at: number; since: number }>();
  const log = (fault: Fault, error: unknown) => {
    const now = clock.now().getTime();
    const last = lastLogged.get(fault);
    if (last && now - last.at < DATABASE_FAULT_LOG_INTERVAL_MS) {
      last.since++;
      return;
    }
    const err = { type: error instanceof Error ? error.name : typeof error, code: errorCodeOf(error), message: error instanceof Error ? error.message : String(error) };
    logger.error({ err, answersSinceLastLine: last?.since ?? 0 }, fault.logged);
    lastLogged.set(fault, { at: now, since: 0 });
  };

  return (err, _req, res, next) => {
    const fault = isStorageFull(err) ? FULL : isDatabaseUnavailable(err) ? UNAVAILABLE : undefined;
    if (!fault || res.headersSent) {
      next(err);
      return;
    }
    log(fault, err);
    logRequestAt(res, 'warn');
    if (fault.retryAfterSeconds !== undefined) res.set('Retry-After', String(fault.retryAfterSeconds));
    sendError(res, fault.code, fault.message);
  };
}
