import { ERROR_STATUS, type ErrorCode } from './index.js';

/** An error that becomes the spec's error body with its code's HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/** Spec part 5 and 7: the one answer for any credential problem, whatever it was. */
export const authFailed = () => new ApiError('auth_failed', 'Invalid API key');
export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);
