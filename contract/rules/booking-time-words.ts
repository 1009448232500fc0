import type { BookingWindowVerdict } from './booking-window.js';
import type { OpeningHoursVerdict } from './opening-hours.js';

/** A booking refused for its time: outside the booking window, or outside the opening hours. */
export type BookingTimeRefusal = Extract<BookingWindowVerdict, { within: false }> | Extract<OpeningHoursVerdict, { open: false }>;

/**
 * A refusal for a booking's time in the words integrators read, after
 * "Invalid request: ": the server's 400 and the BFF's, which must say the same
 * of the same booking. Each names the rule broken and what would pass (the
 * earliest start, the last date, the opening hours). Not for patients: the
 * widget words the codes itself, in its own languages, and never imports
 * this file (its bundle stays free of these sentences).
 */
export function bookingTimeSentence(refusal: BookingTimeRefusal): string {
  switch (refusal.reason) {
    case 'in_past': {
      const { timeZone, date, time } = refusal.now;
      return `appointment_date and appointment_time are in the past (clinic time ${timeZone}: ${date} ${time})`;
    }
    case 'inside_notice': {
      const { timeZone, window, earliest } = refusal.now;
      return (
        `appointment_date and appointment_time must be at least ${window.minNoticeMinutes} minutes ahead (min_notice_minutes): ` +
        `the earliest is ${earliest.date} ${earliest.time} (clinic time ${timeZone})`
      );
    }
    case 'beyond_horizon': {
      const { window, lastBookableDate } = refusal.now;
      return `appointment_date must be within ${window.horizonDays} days from today (horizon_days): the last is ${lastBookableDate}`;
    }
    case 'closed_day':
      return `the clinic is closed on ${refusal.day}`;
    case 'outside_hours':
      return `appointment_time must be within opening hours on ${refusal.day} (${refusal.hours.open}-${refusal.hours.close})`;
    case 'ends_after_closing':
      return `the treatment takes ${refusal.durationMinutes} minutes and would end after closing time (${refusal.hours.close}) on ${refusal.day}`;
  }
}
