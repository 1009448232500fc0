import type { AvailabilitySlot } from '../../contract/bff.js';
import { ApiError } from '../../contract/errors.js';
import { appointmentEnd } from '../../contract/rules/appointment-interval.js';
import type { BookingRules } from '../../contract/rules/booking-rules.js';
import { checkBookingWindow } from '../../contract/rules/booking-window.js';
import type { ClinicNow } from '../../contract/rules/clinic-now.js';
import type { OpeningHours } from '../../contract/rules/opening-hours.js';
import { candidateSlots } from '../../contract/rules/slots.js';
import type { ClinicFacts } from './clinic-facts.js';
import type { TakenOnDate } from './taken-slots.js';

/** How long an appointment holds its dentist: its treatment's duration, else the clinic's default length. */
export const appointmentMinutes = (treatmentMinutes: number | undefined, rules: BookingRules): number =>
  treatmentMinutes ?? rules.defaultDurationMinutes;

/** What an availability question asks about, once checked against the clinic's content. */
export interface AvailabilityQuestion {
  /** The dentists whose time counts: the one asked for, or every dentist of the clinic. */
  dentists: number[];
  /** The treatment's duration, when one was asked for. */
  treatmentMinutes: number | undefined;
  /** How long the appointment would hold its dentist. */
  minutes: number;
  openingHours: OpeningHours;
}

/**
 * Reads an availability question's dentist and treatment against the cached
 * content: 400 validation_error for a dentist or treatment the clinic does not have.
 */
export async function readQuestion(
  facts: ClinicFacts,
  query: { doctor_id?: number; treatment_id?: number },
  rules: BookingRules,
): Promise<AvailabilityQuestion> {
  const dentists = await facts.dentistIds();
  if (query.doctor_id !== undefined && !dentists.includes(query.doctor_id)) {
    throw new ApiError('validation_error', 'doctor_id must be a dentist of this clinic');
  }
  const treatmentMinutes = query.treatment_id === undefined ? undefined : await facts.treatmentDuration(query.treatment_id);
  if (query.treatment_id !== undefined && treatmentMinutes === undefined) {
    throw new ApiError('validation_error', 'treatment_id must be an active treatment of this clinic');
  }
  return {
    dentists: query.doctor_id === undefined ? dentists : [query.doctor_id],
    treatmentMinutes,
    minutes: appointmentMinutes(treatmentMinutes, rules),
    openingHours: await facts.openingHours(),
  };
}

/**
 * The day's starts a patient may be offered: the grid's starts from which the
 * whole appointment ends by closing (contract/rules/slots.ts), inside the
 * booking window (contract/rules/booking-window.ts), as a booking is checked.
 * Empty for a closed day, a day passed or beyond the horizon.
 */
export function bookableStarts(question: AvailabilityQuestion, date: string, now: ClinicNow): string[] {
  return candidateSlots(question.openingHours, date, question.minutes).filter((time) => checkBookingWindow(now, date, time).within);
}

/**
 * Each start open or taken, as best known: open while the dentist asked for
 * (or, without one, at least one dentist) is not known to be held at any
 * moment of the whole appointment. A clinic without dentists known has every start open.
 */
export function slotsOf(question: AvailabilityQuestion, starts: readonly string[], taken: TakenOnDate): AvailabilitySlot[] {
  return starts.map((time) => {
    const end = appointmentEnd(time, question.minutes);
    const free = question.dentists.length === 0 || question.dentists.some((doctorId) => !taken.overlaps(doctorId, time, end));
    return { time, status: free ? 'open' : 'taken' };
  });
}
