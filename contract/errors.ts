/**
 * Every error_code this implementation answers with, its HTTP status, and the
 * error that carries one. Zod-free: the services raise these from their rules,
 * and platform/ turns them into the spec's error body (2.7).
 */
export const ERROR_STATUS = {
  validation_error: 400,
  auth_failed: 401,
  /**
   * BFF only: the site is suspended (`bff sites suspend`), so the BFF serves none of its API. The widget
   * tells the visitor to call the clinic instead, with the phone it already has, else its fallback.
   */
  site_suspended: 403,
  not_found: 404,
  /** A known path asked with a method it does not take; the answer's Allow header lists those it does. */
  method_not_allowed: 405,
  slot_unavailable: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  /**
   * Server: the database cannot be reached or did not answer in time (a restart, a failover, a
   * frozen host); with Retry-After. A booking answered so may or may not have been stored:
   * re-send it with the same Idempotency-Key.
   */
  database_unavailable: 503,
  /** Server: the database's disk is full, so nothing new can be stored until space is freed; reads still work. */
  storage_full: 503,
  /** BFF only: the upstream API failed or is unreachable. */
  upstream_unavailable: 502,
  /** BFF only: the upstream API is busy, or the BFF's own budget of upstream reads is spent; with Retry-After. */
  upstream_busy: 503,
  /** BFF only: the upstream API did not answer in time. */
  upstream_timeout: 504,
  /** BFF only: a booking upstream did not answer in time, so it may or may not have been made; re-send it with the same Idempotency-Key. */
  booking_outcome_unknown: 504,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

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

/**
 * Spec part 5 and 7: every credential problem is 401 auth_failed, with a message
 * that says what is wrong but never whether an app key exists: an unknown key and
 * a wrong secret read alike, and so do an unknown key and a token of another key.
 */
export const AUTH_FAILURES = {
  /** No Authorization header with the Bearer scheme (in any letter case). */
  missing_token: 'Missing bearer token: send Authorization: Bearer <access_token> from POST /granttoken, with x-app-key',
  /** A bearer token without the x-app-key it was issued to. */
  missing_app_key: 'Missing x-app-key header: send it with the bearer token',
  /** A token that is malformed, unknown, expired, revoked, or not issued to this x-app-key. */
  invalid_token: 'Invalid or expired access token',
  /** POST /granttoken without x-app-key or x-app-secret-key. */
  missing_key_or_secret: 'Missing x-app-key or x-app-secret-key header',
  /** POST /granttoken with an unknown or revoked key, or a wrong secret. */
  invalid_key: 'Invalid API key or secret',
} as const;
export type AuthFailure = keyof typeof AUTH_FAILURES;

export const authFailed = (reason: AuthFailure) => new ApiError('auth_failed', AUTH_FAILURES[reason]);
export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);
/** An Idempotency-Key sent again with another body: the server's answer, and the BFF's when it sees the reuse first. */
export const idempotencyKeyReused = () =>
  new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body; use a new key for a new booking');
