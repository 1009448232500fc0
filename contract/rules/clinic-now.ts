import { addDays, clinicLocalTime, type ClinicLocalTime } from './clinic-time.js';
import { LIMITS } from './limits.js';

/** What a booking or an availability question is checked against: the clinic's date and time now, and the last day it may book. */
export interface ClinicNow extends Readonly<ClinicLocalTime> {
  /** The last bookable date, LIMITS.bookingHorizonDays after today. */
  readonly lastBookableDate: string;
}

/** The last reading per time zone, and the whole UTC second it was read for. */
const lastReadings = new Map<string, { second: number; now: ClinicNow }>();

/**
 * The clinic's clock and calendar at `instant` (clinicLocalTime), with its
 * booking horizon: the server's bookings and the BFF's availability check
 * against it. Every booking asks for "now", and reading it through Intl and
 * working out the horizon date was about 5 % of a booking's CPU: the last
 * reading of each zone is kept for the rest of its UTC second. Per second, not
 * per minute: every offset in the time zone data is whole seconds, but some
 * were not whole minutes (Africa/Monrovia was UTC-00:44:30 until 1972), so one
 * UTC minute could hold two local minutes. A file of its own that the widget
 * does not import (it reads clinic-time.ts directly), so its bundle stays as
 * small as it is.
 */
export function clinicNow(instant: Date, timeZone: string): ClinicNow {
  const second = Math.floor(instant.getTime() / 1000);
  const last = lastReadings.get(timeZone);
  if (last?.second === second) return last.now;
  const { date, time } = clinicLocalTime(instant, timeZone);
  const now = Object.freeze({ date, time, lastBookableDate: addDays(date, LIMITS.bookingHorizonDays) });
  lastReadings.set(timeZone, { second, now });
  return now;
}
