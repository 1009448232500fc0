/**
 * A failed call to the BFF: `status` 0 and code 'network' when it could not be reached.
 * The message is the BFF's, English for integrators (and the browser's console): the
 * widget decides what to tell the visitor by status, code and reason alone.
 */
export class BffError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The answer's Retry-After, in whole seconds, when it had one. */
    readonly retryAfter?: number,
    /**
     * Why the BFF refused a booking (400 validation_error), as it sent it: one of the contract's
     * REFUSAL_REASONS, or a code this widget does not know yet, or none.
     */
    readonly reason?: string,
  ) {
    super(message);
  }
}

/**
 * Any failure as a BffError, so every caller reads status, code and message
 * the same way: the BFF's own refusal as it is; anything else (fetch
 * rejected, an answer that is not the JSON we expect) means the clinic could
 * not be reached, which is what the visitor should be told.
 */
export function toBffError(error: unknown): BffError {
  return error instanceof BffError ? error : new BffError(0, 'network', 'network');
}

/** Retry-After the widget assumes for a busy answer without one: the BFF's own default. */
const DEFAULT_BUSY_SECONDS = 30;
/** The longest wait the widget names or waits for: the BFF passes on no more. */
const MAX_BUSY_SECONDS = 300;

/**
 * The seconds to wait when the clinic's system is busy (503 upstream_busy,
 * or any 503 with Retry-After); undefined for any other failure.
 */
export function busySeconds({ status, code, retryAfter }: BffError): number | undefined {
  if (code !== 'upstream_busy' && !(status === 503 && retryAfter !== undefined)) return undefined;
  return Math.min(Math.max(retryAfter ?? DEFAULT_BUSY_SECONDS, 1), MAX_BUSY_SECONDS);
}
