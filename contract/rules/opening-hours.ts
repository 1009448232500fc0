import { DAY_NAMES, type DayName } from './days.js';
import type { OpeningHoursEntry } from '../index.js';
import { minutesOf } from './clinic-time.js';

// Shared with the widget (which checks the same rules in the browser): keep
// this file free of runtime imports other than ../contract/days.js.

/** The English day name of a YYYY-MM-DD date, as used for opening_hours keys. */
export function dayNameOf(date: string): DayName {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const sundayFirst = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return DAY_NAMES[(sundayFirst + 6) % 7]!;
}

export type OpeningHoursVerdict =
  | { open: true }
  | { open: false; reason: string };

/**
 * Whether an appointment starting at `time` on `date` fits the clinic's
 * opening hours: the day must be open, the start at or after opening and
 * before closing, and, when the treatment's length is known, it must end by closing.
 */
export function checkOpeningHours(
  openingHours: Partial<Record<DayName, OpeningHoursEntry>>,
  date: string,
  time: string,
  durationMinutes?: number,
): OpeningHoursVerdict {
  const day = dayNameOf(date);
  const hours = openingHours[day];
  if (!hours || hours.is_closed) return { open: false, reason: `the clinic is closed on ${day}` };
  const start = minutesOf(time);
  if (start < minutesOf(hours.open) || start >= minutesOf(hours.close)) {
    return { open: false, reason: `appointment_time must be within opening hours on ${day} (${hours.open}-${hours.close})` };
  }
  if (durationMinutes !== undefined && start + durationMinutes > minutesOf(hours.close)) {
    return {
      open: false,
      reason: `the treatment takes ${durationMinutes} minutes and would end after closing time (${hours.close}) on ${day}`,
    };
  }
  return { open: true };
}
