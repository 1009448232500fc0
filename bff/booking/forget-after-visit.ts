import { instantOf } from '../availability/zoned-time.js';

/**
 * How long after an appointment the BFF may still remember anything about it
 * (docs/privacy.md): its dentist and treatment for status lookups, its
 * booking record and change requests (bff/changes/change-store.ts). The other
 * things it learns from a booking go sooner: a taken slot when the slot
 * starts, the dentist a patient key tried a day after the booking, which is
 * never in the past.
 */
export const FORGET_AFTER_VISIT_MS = 7 * 24 * 3600_000;

/** The instant (ms since the epoch) from which nothing may be remembered of the appointment at `date` `time` (clinic time). */
export function forgetAt(date: string, time: string, timeZone: string): number {
  return instantOf(date, time, timeZone) + FORGET_AFTER_VISIT_MS;
}

/** Milliseconds from `now` until what is remembered about the appointment at `date` `time` (clinic time) must be gone; ≤ 0 once it must. */
export function msUntilForgotten(date: string, time: string, timeZone: string, now: Date): number {
  return forgetAt(date, time, timeZone) - now.getTime();
}
