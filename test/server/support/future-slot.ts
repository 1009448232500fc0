import { addDays, clinicLocalTime } from '../../../contract/rules/clinic-time.js';
import { dayNameOf } from '../../../contract/rules/opening-hours.js';

/**
 * A real-clock weekday at least two days ahead in London, for tests that run
 * a server process with the system clock; the fixture clinic is open 08:00-18:00 then.
 */
export function nextWeekdayInLondon(): string {
  let date = addDays(clinicLocalTime(new Date(), 'Europe/London').date, 2);
  while (['Saturday', 'Sunday'].includes(dayNameOf(date))) date = addDays(date, 1);
  return date;
}
