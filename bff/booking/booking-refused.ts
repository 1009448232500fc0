import { ApiError } from '../../contract/errors.js';
import type { RefusalReason } from '../../contract/bff.js';

/**
 * A booking the BFF refuses before sending it on, by a rule it can check from
 * what it knows (the clinic's time, its cached opening hours, treatments and
 * dentists): 400 validation_error whose body carries `reason`, the rule as a
 * code (BffErrorBody), beside an English message for integrators.
 */
export class BookingRefused extends ApiError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super('validation_error', `Invalid request: ${message}`);
  }
}
