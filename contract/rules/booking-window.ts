import type { ClinicNow } from './clinic-now.js';

/**
 * Whether a start lies in the booking window, and if not which rule it
 * breaks, as a code (the BFF's REFUSAL_REASONS carry them to the widget, which
 * words them for patients; booking-time-words.ts words them for integrators).
 * A refusal carries the reading it was checked against, which its words name.
 */
export type BookingWindowVerdict =
  | { readonly within: true }
  | { readonly within: false; readonly reason: 'in_past' | 'inside_notice' | 'beyond_horizon'; readonly now: ClinicNow };

const WITHIN: BookingWindowVerdict = Object.freeze({ within: true });

/**
 * Whether an appointment starting at `time` on `date`, the clinic's wall
 * clock, lies in the window `now` was read with (clinicNow): after now (a
 * start at this very minute has passed), no sooner than the notice allows
 * (now.earliest), and on or before the horizon's last date. In that order, so
 * that a time already passed is "in the past", not "too soon". The server
 * refuses a booking by it, the BFF before sending one upstream, and the BFF
 * offers only the starts it lets through.
 */
export function checkBookingWindow(now: ClinicNow, date: string, time: string): BookingWindowVerdict {
  if (date < now.date || (date === now.date && time <= now.time)) return { within: false, reason: 'in_past', now };
  const { earliest } = now;
  if (date < earliest.date || (date === earliest.date && time < earliest.time)) return { within: false, reason: 'inside_notice', now };
  if (date > now.lastBookableDate) return { within: false, reason: 'beyond_horizon', now };
  return WITHIN;
}
