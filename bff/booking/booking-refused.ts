import { ApiError } from '../../contract/errors.js';
import type { RefusalReason } from '../../contract/bff.js';
import type { OpeningHoursVerdict } from '../../contract/rules/opening-hours.js';

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

/** A start outside the opening hours, refused with checkOpeningHours's own code, in the reference server's words. */
export function outsideOpeningHours(verdict: Extract<OpeningHoursVerdict, { open: false }>): BookingRefused {
  switch (verdict.reason) {
    case 'closed_day':
      return new BookingRefused(verdict.reason, `the clinic is closed on ${verdict.day}`);
    case 'outside_hours':
      return new BookingRefused(
        verdict.reason,
        `appointment_time must be within opening hours on ${verdict.day} (${verdict.hours.open}-${verdict.hours.close})`,
      );
    case 'ends_after_closing':
      return new BookingRefused(
        verdict.reason,
        `the treatment takes ${verdict.durationMinutes} minutes and would end after closing time (${verdict.hours.close}) on ${verdict.day}`,
      );
  }
}
