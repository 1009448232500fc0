import type { Request } from 'express';
import { ApiError, IdempotencyKeyHeader } from '../contract/index.js';

/**
 * The request's Idempotency-Key header, checked against the contract, or
 * undefined when it has none; a malformed key is 400 validation_error.
 */
export function readIdempotencyKey(req: Request): string | undefined {
  const header = req.get('idempotency-key');
  if (header === undefined) return undefined;
  const parsed = IdempotencyKeyHeader.safeParse(header);
  if (!parsed.success) {
    throw new ApiError('validation_error', `Invalid request: Idempotency-Key ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  }
  return parsed.data;
}
