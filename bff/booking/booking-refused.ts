import { ApiError } from '../../contract/errors.js';
import type { RefusalReason } from '../../contract/bff.js';
import { bookingTimeSentence, type BookingTimeRefusal } from '../../contract/rules/booking-time-words.js';

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

/**
 * A start outside the booking window or the opening hours, refused with the
 * verdict's own code, in the reference server's words (the same function words both).
 */
export const refusedForTime = (refusal: BookingTimeRefusal): BookingRefused => new BookingRefused(refusal.reason, bookingTimeSentence(refusal));
