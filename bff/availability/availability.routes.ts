import { AVAILABILITY_PATH, AvailabilityQuery, AvailabilityResponse } from '../../contract/bff.js';
import { ApiError } from '../../contract/errors.js';
import type { BookingRules } from '../../contract/rules/booking-rules.js';
import { clinicNow } from '../../contract/rules/clinic-now.js';
import { SLOT_STEP_MINUTES } from '../../contract/rules/slots.js';
import { declaration, served, type AnyOperation } from '../../platform/operation.js';
import { commonErrors, errorAnswer, json, NoStore, tagged } from '../http/answers.js';
import type { Clock } from '../../platform/clock.js';
import type { ClinicFacts } from './clinic-facts.js';
import { bookableStarts, readQuestion, slotsOf } from './open-starts.js';
import type { TakenSlots } from './taken-slots.js';

/** What availability reads the clinic's time and rules from. */
export interface AvailabilitySettings {
  /** The clinic's IANA zone (CLINIC_TIMEZONE). */
  timeZone: string;
  /** The clinic's notice, horizon and default length (BOOKING_*). */
  rules: BookingRules;
  clock: Clock;
}

/** What every availability answer says about itself. */
export const AVAILABILITY_NOTE =
  'Availability as best known to this booking service: a start is taken when the appointment would meet time booked ' +
  'through it, or a start the clinic system refused as taken. A booking made by phone or at the desk can still take ' +
  'a slot shown open; the booking itself then says so.';

/** What GET /api/availability declares: the same for every site. */
const GET_AVAILABILITY = declaration({
  id: 'getAvailability',
  method: 'get',
  path: AVAILABILITY_PATH,
  docs: {
    ...tagged('Availability'),
    summary: "A day's start times, each open or taken, as best known",
    description:
      "The day's candidate starts every 15 minutes, from opening to the last start from which the whole appointment " +
      "(the treatment's duration, else the clinic's default length, BOOKING_DEFAULT_DURATION_MINUTES) ends by closing, " +
      'from the cached opening hours; only starts at least BOOKING_MIN_NOTICE_MINUTES ahead in the clinic\'s time zone ' +
      '(CLINIC_TIMEZONE) are listed. A start is open when the dentist is not known to be booked at any moment of the ' +
      `whole appointment. Best known, not the clinic diary: ${AVAILABILITY_NOTE} Without doctor_id a start is taken ` +
      'only when no dentist is known free for all of it; a booking without doctor_id gets the least booked dentist ' +
      'free then. Never cached.',
  },
  request: { query: AvailabilityQuery },
  // Set before the query is read, so that a refused one is not cached either.
  answerHeaders: { 'Cache-Control': 'no-store' },
  responses: {
    '200': { description: "The day's slots.", headers: NoStore, ...json(AvailabilityResponse) },
    '400': errorAnswer(
      'validation_error: a date that is not YYYY-MM-DD, before today or past the horizon (BOOKING_HORIZON_DAYS); a doctor_id that ' +
        'is not a dentist of the clinic; a treatment_id that is not an active treatment; an unknown query parameter.',
    ),
    ...commonErrors,
  },
});

/**
 * GET /api/availability?date=YYYY-MM-DD[&doctor_id=N][&treatment_id=N]: the
 * day's starts from which the whole appointment (the treatment's duration, else
 * the clinic's default length) ends by closing, from the cached opening hours,
 * inside the notice and horizon (open-starts.ts), each open or taken as
 * TakenSlots knows the whole interval. Without a dentist, a start is taken
 * only when no dentist is known free for all of it (the booking picks a free
 * one). Never cached: it changes with each booking.
 */
export function availabilityOperations(facts: ClinicFacts, taken: TakenSlots, { timeZone, rules, clock }: AvailabilitySettings): AnyOperation[] {
  const getAvailability = served(GET_AVAILABILITY, {
    async handle({ query }, _req, res) {
      const now = clinicNow(clock.now(), timeZone, rules);
      if (query.date < now.date || query.date > now.lastBookableDate) {
        throw new ApiError('validation_error', `date must be from today (${now.date}) to ${now.lastBookableDate} (${rules.horizonDays} days ahead)`);
      }
      const question = await readQuestion(facts, query, rules);
      const starts = bookableStarts(question, query.date, now);
      // One look-up for the whole day (one Redis round trip when shared), not one per slot.
      const slots = slotsOf(question, starts, await taken.takenOn(query.date, question.dentists));
      const body: AvailabilityResponse = {
        success: true,
        best_known: true,
        note: AVAILABILITY_NOTE,
        data: {
          date: query.date,
          doctor_id: query.doctor_id ?? null,
          treatment_id: query.treatment_id ?? null,
          duration_minutes: question.treatmentMinutes ?? null,
          step_minutes: SLOT_STEP_MINUTES,
          time_zone: timeZone,
          slots,
        },
      };
      res.json(body);
    },
  });
  return [getAvailability];
}
