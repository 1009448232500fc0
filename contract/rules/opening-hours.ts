import { DAY_NAMES, type DayName } from './days.js';
import { minutesOf } from './clinic-time.js';

/** Spec 2.3 opening-hours entry (the zod schema in contract/website.ts has this shape). */
export interface OpeningHoursDay {
  open: string;
  close: string;
  is_closed: boolean;
}

/** opening_hours as the website settings carry it: a day left out is closed. */
export type OpeningHours = Partial<Record<DayName, OpeningHoursDay>>;

/** The English day name of a YYYY-MM-DD date, as used for opening_hours keys. */
export function dayNameOf(date: string): DayName {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const sundayFirst = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return DAY_NAMES[(sundayFirst + 6) % 7]!;
}

/**
 * Why a start time does not fit the opening hours, as a code: each tier puts
 * it in its own words (the server for integrators, the widget for patients).
 */
export type OpeningHoursVerdict =
  | { open: true; day: DayName; hours: OpeningHoursDay }
  | { open: false; reason: 'closed_day'; day: DayName }
  | { open: false; reason: 'outside_hours'; day: DayName; hours: OpeningHoursDay }
  | { open: false; reason: 'ends_after_closing'; day: DayName; hours: OpeningHoursDay; durationMinutes: number };

/**
 * Whether an appointment starting at `time` on `date` fits the clinic's
 * opening hours: the day must be open, the start at or after opening and
 * before closing, and, when the treatment's length is known, it must end by closing.
 */
export function checkOpeningHours(
  openingHours: OpeningHours,
  date: string,
  time: string,
  durationMinutes?: number,
): OpeningHoursVerdict {
  const day = dayNameOf(date);
  const hours = openingHours[day];
  if (!hours || hours.is_closed) return { open: false, reason: 'closed_day', day };
  const start = minutesOf(time);
  if (start < minutesOf(hours.open) || start >= minutesOf(hours.close)) {
    return { open: false, reason: 'outside_hours', day, hours };
  }
  if (durationMinutes !== undefined && start + durationMinutes > minutesOf(hours.close)) {
    return { open: false, reason: 'ends_after_closing', day, hours, durationMinutes };
  }
  return { open: true, day, hours };
}
