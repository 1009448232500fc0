import { BookingRefused } from '../../contract/bff.js';
import { bookingTimeSentence, type BookingTimeRefusal } from '../../contract/rules/booking-time-words.js';
import type { RefusalReason } from '../../contract/rules/bff-api.js';
import { checkBookingWindow } from '../../contract/rules/booking-window.js';
import type { ClinicNow } from '../../contract/rules/clinic-now.js';
import { minutesOf } from '../../contract/rules/clinic-time.js';
import { checkOpeningHours, type OpeningHours } from '../../contract/rules/opening-hours.js';
import { SLOT_STEP_MINUTES } from '../../contract/rules/slots.js';

/**
 * A start outside the booking window or the opening hours, refused with the
 * verdict's own code, in the reference server's words (the same function words both).
 */
export const refusedForTime = (refusal: BookingTimeRefusal): BookingRefused => new BookingRefused(refusal.reason, bookingTimeSentence(refusal));

/** Why a start is refused: its code, and the words that follow "Invalid request: ". */
export interface StartRefusal {
  reason: RefusalReason;
  sentence: string;
}

const OFF_GRID: StartRefusal = {
  reason: 'off_grid',
  sentence: `appointment_time must be on the booking grid, every ${SLOT_STEP_MINUTES} minutes (:00, :15, :30, :45)`,
};

/**
 * Why a start breaks the opening hours (a treatment of `treatmentMinutes`
 * must end by closing) or the BFF's 15-minute grid, which only the BFF has;
 * undefined when it breaks neither. Without the opening hours (upstream
 * could not be read) only the grid is checked. A booking's start is checked
 * so (after its treatment and dentist), and so is each start a move request wishes for.
 */
export function startRefusalOf(date: string, time: string, openingHours: OpeningHours | undefined, treatmentMinutes: number | undefined): StartRefusal | undefined {
  if (openingHours) {
    // Only a treatment's length must end by closing, as on the reference server.
    const hours = checkOpeningHours(openingHours, date, time, treatmentMinutes);
    if (!hours.open) return { reason: hours.reason, sentence: bookingTimeSentence(hours) };
  }
  // The grid the BFF offers starts on; the reference server takes any HH:MM, as the spec allows.
  if (minutesOf(time) % SLOT_STEP_MINUTES !== 0) return OFF_GRID;
  return undefined;
}

/**
 * Every rule a start meets that the BFF can check itself: the booking window
 * read at `now` (its notice and horizon), then startRefusalOf. What a move
 * request's wished start meets, as a booking would.
 */
export function wholeStartRefusalOf(
  now: ClinicNow,
  date: string,
  time: string,
  openingHours: OpeningHours | undefined,
  treatmentMinutes: number | undefined,
): StartRefusal | undefined {
  const window = checkBookingWindow(now, date, time);
  if (!window.within) return { reason: window.reason, sentence: bookingTimeSentence(window) };
  return startRefusalOf(date, time, openingHours, treatmentMinutes);
}
