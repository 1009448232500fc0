/** A failed call to the BFF: `status` 0 and code 'network' when it could not be reached. */
export class BffError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
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
