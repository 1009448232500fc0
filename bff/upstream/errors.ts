import { ApiError } from '../../contract/errors.js';

/**
 * The upstream API could not give an answer: down, too slow, answering 5xx,
 * answering more than the BFF will read (`too_large`), or pointing elsewhere
 * with a 3xx (`redirect`), which the BFF never follows.
 */
export class UpstreamUnavailable extends Error {
  constructor(
    readonly reason: 'unreachable' | 'timeout' | 'server_error' | 'auth' | 'too_large' | 'redirect',
    message: string,
    /**
     * True when the request may have reached upstream before the failure (a
     * timeout or a connection lost after it was open): a booking may then have
     * been made. False when it surely was not (connection refused, no such host).
     */
    readonly mayHaveArrived = false,
  ) {
    super(message);
  }
}

/** Retry-After the BFF answers when upstream is busy and gave none (or one that is not a number of seconds). */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;
/** The most Retry-After the BFF passes on: a patient is not told to wait longer than this. */
export const MAX_RETRY_AFTER_SECONDS = 300;

/**
 * Upstream's Retry-After as a bounded whole number of seconds: only digits are
 * taken (never an HTTP date or anything else a header could carry), clamped
 * to 1..MAX_RETRY_AFTER_SECONDS; anything else is DEFAULT_RETRY_AFTER_SECONDS.
 */
export function retryAfterSeconds(header: string | null | undefined): number {
  const value = header?.trim() ?? '';
  if (!/^\d+$/.test(value)) return DEFAULT_RETRY_AFTER_SECONDS;
  return Math.min(Math.max(Number(value), 1), MAX_RETRY_AFTER_SECONDS);
}

/**
 * Upstream answered 429: its rate limit for this BFF's app key is spent, so
 * every visitor is refused alike. Answered as 503 upstream_busy with
 * Retry-After (not 429, which is the BFF's own per-client limit).
 */
export class UpstreamBusy extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super('upstream_busy', `The clinic system is busy; please try again in ${retryAfterSeconds} seconds`);
  }
}

/**
 * A booking that upstream did not answer in time (or whose connection was lost
 * after it was sent): it may have been made or not. Re-sending the same body
 * with the same Idempotency-Key is safe and tells which: upstream replays the
 * first answer, or books it now.
 */
export class BookingOutcomeUnknown extends ApiError {
  readonly retryAfterSeconds = 2;
  constructor() {
    super(
      'booking_outcome_unknown',
      'The clinic system did not confirm this booking in time, so it may or may not have been made; ' +
        'send it again with the same Idempotency-Key to find out (it is never booked twice)',
    );
  }
}
