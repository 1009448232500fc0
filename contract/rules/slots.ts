import { minutesOf } from './clinic-time.js';
import { dayNameOf, type OpeningHours } from './opening-hours.js';

/**
 * The start times a patient may pick on a day, shared by the BFF's
 * availability answer and the widget's time picker, so both offer the same list.
 */

/** Candidate start times lie on this grid of the clock: :00, :15, :30, :45. */
export const SLOT_STEP_MINUTES = 15;

/** Whether the BFF knows a candidate start to be booked already ('taken') or not ('open'). */
export const SLOT_STATUSES = ['open', 'taken'] as const;
export type SlotStatus = (typeof SLOT_STATUSES)[number];

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * The day's candidate start times (HH:MM, ascending) on the 15-minute grid:
 * from opening (rounded up to the grid when the clinic opens off it) to the
 * last start that still ends by closing. With a treatment, a start ends after
 * its `durationMinutes`; without one, after one step (15 minutes), so the
 * last start offered is closing minus 15. The server would also take a later
 * start when no treatment is given (any start before closing), but a slot a
 * patient is offered is one that fits; a closed or missing day has none.
 * Every start returned passes checkOpeningHours.
 */
export function candidateSlots(openingHours: OpeningHours, date: string, durationMinutes?: number): string[] {
  const hours = openingHours[dayNameOf(date)];
  if (!hours || hours.is_closed) return [];
  const open = minutesOf(hours.open);
  const close = minutesOf(hours.close);
  const length = durationMinutes ?? SLOT_STEP_MINUTES;
  const slots: string[] = [];
  for (let start = Math.ceil(open / SLOT_STEP_MINUTES) * SLOT_STEP_MINUTES; start + length <= close; start += SLOT_STEP_MINUTES) {
    slots.push(hhmm(start));
  }
  return slots;
}

/**
 * True when the day offers at least one candidate start; with `after` (HH:MM,
 * e.g. the clinic's time now on today's date), at least one later than it.
 */
export function dayHasSlot(openingHours: OpeningHours, date: string, durationMinutes?: number, after?: string): boolean {
  const slots = candidateSlots(openingHours, date, durationMinutes);
  return after === undefined ? slots.length > 0 : slots.some((time) => time > after);
}
