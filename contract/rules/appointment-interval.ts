import { minutesOf } from './clinic-time.js';

/**
 * When an appointment that starts at `start` (HH:MM, the clinic's clock) and
 * lasts `minutes` ends. It holds its dentist from the start up to the end, the
 * end itself excluded, so back-to-back appointments (10:00-11:00, then 11:00)
 * do not overlap. An appointment belongs to its day: one that would run past
 * midnight holds its dentist until midnight (24:00), not into the next day.
 * HH:MM strings compare in time order, as the database compares them.
 */
export function appointmentEnd(start: string, minutes: number): string {
  const end = Math.min(minutesOf(start) + minutes, 24 * 60);
  return `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
}
