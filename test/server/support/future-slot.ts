import { addDays, clinicLocalTime } from '../../../contract/rules/clinic-time.js';
import { dayNameOf } from '../../../contract/rules/opening-hours.js';

const isWeekend = (date: string) => ['Saturday', 'Sunday'].includes(dayNameOf(date));

/**
 * A real-clock weekday at least two days ahead in London (past the clinic's
 * notice), for tests that run a server process with the system clock; the
 * fixture clinic is open 08:00-18:00 then.
 */
export function nextWeekdayInLondon(): string {
  let date = addDays(clinicLocalTime(new Date(), 'Europe/London').date, 2);
  while (isWeekend(date)) date = addDays(date, 1);
  return date;
}

/** The weekday `weekdays` weekdays after `date` (a weekday). */
export function weekdaysAfter(date: string, weekdays: number): string {
  let day = date;
  for (let left = weekdays; left > 0; ) {
    day = addDays(day, 1);
    if (!isWeekend(day)) left--;
  }
  return day;
}

export interface DentistSlot {
  doctor_id: number;
  appointment_date: string;
  appointment_time: string;
}

/** The fixture clinic's weekday half hours, 08:00 to 17:30: back to back for bookings of the default 30 minutes. */
const HALF_HOURS = Array.from({ length: 20 }, (_, index) => `${String(8 + Math.floor(index / 2)).padStart(2, '0')}:${index % 2 ? '30' : '00'}`);

/**
 * Hands out dentist slots no two of which overlap, for bookings without a
 * treatment (the clinic's default 30 minutes): every dentist at every half
 * hour of a weekday, then the next weekday, from `first` (a weekday) on. For
 * tests whose bookings must all be taken and still go through the dentist's
 * overlap check.
 */
export function dentistSlots(doctorIds: readonly number[], first: string): () => DentistSlot {
  let date = first;
  let index = 0;
  return () => {
    if (index === HALF_HOURS.length * doctorIds.length) {
      index = 0;
      date = weekdaysAfter(date, 1);
    }
    const slot = { doctor_id: doctorIds[index % doctorIds.length]!, appointment_date: date, appointment_time: HALF_HOURS[Math.floor(index / doctorIds.length)]! };
    index++;
    return slot;
  };
}
