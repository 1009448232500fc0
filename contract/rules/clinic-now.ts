import { DEFAULT_BOOKING_RULES, type BookingRules } from './booking-rules.js';
import { addDays, clinicLocalTime, type ClinicLocalTime } from './clinic-time.js';

/** The rules that bound when a booking may be: its notice and its horizon. */
export type BookingWindow = Pick<BookingRules, 'minNoticeMinutes' | 'horizonDays'>;

/**
 * What a booking or an availability question is checked against
 * (checkBookingWindow): the clinic's date and time now, and the window it may
 * book in, with the zone and rules it was read with, which a refusal names.
 */
export interface ClinicNow extends Readonly<ClinicLocalTime> {
  /** The clinic's IANA time zone, that date and time are read in. */
  readonly timeZone: string;
  /** The notice and horizon that earliest and lastBookableDate follow from. */
  readonly window: Readonly<BookingWindow>;
  /** The first date and time that may be booked: now plus the minimum notice, rounded up to a whole minute. */
  readonly earliest: Readonly<ClinicLocalTime>;
  /** The last bookable date, the horizon's days after today. */
  readonly lastBookableDate: string;
}

/**
 * The clinic's clock and calendar at `instant` (clinicLocalTime), with the
 * window a booking must fall in (a clinic's rules, the defaults unless given):
 * what checkBookingWindow reads, for the server's and the BFF's bookings and
 * the BFF's availability. Per
 * second, not per minute, is how a reading may be kept (ClinicNowReadings):
 * every offset in the time zone data is whole seconds, but some were not
 * whole minutes (Africa/Monrovia was UTC-00:44:30 until 1972), so one UTC
 * minute could hold two local minutes. A file of its own that the widget does
 * not import (it reads clinic-time.ts directly), so its bundle stays as small
 * as it is.
 */
export function clinicNow(instant: Date, timeZone: string, window: BookingWindow = DEFAULT_BOOKING_RULES): ClinicNow {
  const { date, time } = clinicLocalTime(instant, timeZone);
  const { minNoticeMinutes, horizonDays } = window;
  const second = Math.floor(instant.getTime() / 1000);
  // Rounded up to a whole minute, so that a booking at the earliest minute is not seconds short of the notice.
  const earliestInstant = Math.ceil((second * 1000 + minNoticeMinutes * 60_000) / 60_000) * 60_000;
  return Object.freeze({
    date,
    time,
    timeZone,
    window: Object.freeze({ minNoticeMinutes, horizonDays }),
    earliest: Object.freeze(clinicLocalTime(new Date(earliestInstant), timeZone)),
    lastBookableDate: addDays(date, horizonDays),
  });
}

/**
 * clinicNow, with the last reading of each time zone and window kept for the
 * rest of its UTC second: every booking asks for "now", and reading it
 * through Intl and working out the horizon date was about 5 % of a booking's
 * CPU. Whoever wants the memo makes one and owns it (the server one per app),
 * so two apps in one process share nothing. A reading is frozen: no caller
 * can change it for the next.
 */
export class ClinicNowReadings {
  /** The last reading per time zone and window, and the whole UTC second it was read for. */
  readonly #last = new Map<string, { second: number; now: ClinicNow }>();

  at(instant: Date, timeZone: string, window: BookingWindow = DEFAULT_BOOKING_RULES): ClinicNow {
    const second = Math.floor(instant.getTime() / 1000);
    const key = `${timeZone} ${window.minNoticeMinutes} ${window.horizonDays}`;
    const last = this.#last.get(key);
    if (last?.second === second) return last.now;
    const now = clinicNow(instant, timeZone, window);
    this.#last.set(key, { second, now });
    return now;
  }
}
