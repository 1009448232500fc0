import { clinicLocalTime } from '../../contract/rules/clinic-time.js';

/**
 * The instant at which the clinic's clock in `timeZone` reads `date` `time`
 * (YYYY-MM-DD, HH:MM). A wall-clock time skipped by a DST change maps to the
 * instant an hour later, one that happens twice to the first; either is close
 * enough for forgetting a slot once it has passed.
 */
export function instantOf(date: string, time: string, timeZone: string): number {
  const wall = Date.parse(`${date}T${time}:00Z`);
  let instant = wall;
  for (let i = 0; i < 2; i++) {
    const local = clinicLocalTime(new Date(instant), timeZone);
    instant += wall - Date.parse(`${local.date}T${local.time}:00Z`);
  }
  return instant;
}
