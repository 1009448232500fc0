import type { RequestHandler } from 'express';
import { AVAILABILITY_PATH, AvailabilityQuery, AvailabilityResponse, type AvailabilitySlot } from '../../contract/bff.js';
import { ApiError } from '../../contract/errors.js';
import { clinicNow } from '../../contract/rules/clinic-now.js';
import { LIMITS } from '../../contract/rules/limits.js';
import { candidateSlots, SLOT_STEP_MINUTES } from '../../contract/rules/slots.js';
import { operation, type AnyOperation } from '../../platform/operation.js';
import { commonErrors, errorAnswer, json, NoStore, tagged } from '../http/answers.js';
import type { Clock } from '../../platform/clock.js';
import type { ClinicFacts } from './clinic-facts.js';
import type { TakenSlots } from './taken-slots.js';

/** What every availability answer says about itself. */
export const AVAILABILITY_NOTE =
  'Availability as best known to this booking service: a slot is taken once it was booked through it or the clinic ' +
  'system refused it as taken. A booking made by phone or at the desk can still take a slot shown open; the booking ' +
  'itself then says so.';

/**
 * GET /api/availability?date=YYYY-MM-DD[&doctor_id=N][&treatment_id=N]: the
 * day's candidate starts (contract/rules/slots.ts) from the cached opening
 * hours and the treatment's duration, each open or taken as TakenSlots knows.
 * Without a dentist, a start is taken only when every dentist is known to be
 * taken then (the booking picks a free one). On today's date only starts
 * still ahead in `timeZone` are listed. Never cached: it changes with each booking.
 */
export function availabilityOperations(facts: ClinicFacts, taken: TakenSlots, timeZone: string, clock: Clock): AnyOperation[] {
  // Before the query is read, so that a refused one is not cached either.
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };
  const getAvailability = operation({
    id: 'getAvailability',
    method: 'get',
    path: AVAILABILITY_PATH,
    docs: {
      ...tagged('Availability'),
      summary: "A day's start times, each open or taken, as best known",
      description:
        "The day's candidate starts every 15 minutes, from opening to the last start that ends by closing (with the " +
        "treatment's duration, else 15 minutes), from the cached opening hours; on today's date only those still " +
        "ahead in the clinic's time zone (CLINIC_TIMEZONE). Best known, not the clinic diary: " +
        `${AVAILABILITY_NOTE} Without doctor_id a start is taken only when every dentist is known to be booked then; ` +
        'a booking without doctor_id gets the first dentist free. Never cached.',
    },
    request: { query: AvailabilityQuery },
    responses: {
      '200': { description: "The day's slots.", headers: NoStore, ...json(AvailabilityResponse) },
      '400': errorAnswer(
        'validation_error: a date that is not YYYY-MM-DD, before today or more than 365 days ahead; a doctor_id that ' +
          'is not a dentist of the clinic; a treatment_id that is not an active treatment; an unknown query parameter.',
      ),
      ...commonErrors,
    },
    before: [noStore],
    async handle({ query }, _req, res) {
      const now = clinicNow(clock.now(), timeZone);
      if (query.date < now.date || query.date > now.lastBookableDate) {
        throw new ApiError('validation_error', `date must be from today (${now.date}) to ${LIMITS.bookingHorizonDays} days ahead`);
      }
      const dentists = await facts.dentistIds();
      if (query.doctor_id !== undefined && !dentists.includes(query.doctor_id)) {
        throw new ApiError('validation_error', 'doctor_id must be a dentist of this clinic');
      }
      const duration = query.treatment_id === undefined ? undefined : await facts.treatmentDuration(query.treatment_id);
      if (query.treatment_id !== undefined && duration === undefined) {
        throw new ApiError('validation_error', 'treatment_id must be an active treatment of this clinic');
      }
      const starts = candidateSlots(await facts.openingHours(), query.date, duration).filter(
        (time) => query.date > now.date || time > now.time,
      );
      const askedAbout = query.doctor_id === undefined ? dentists : [query.doctor_id];
      // One look-up for the whole day (one Redis round trip when shared), not one per slot.
      const isTaken = await taken.takenOn(query.date, askedAbout);
      const slots: AvailabilitySlot[] = starts.map((time) => ({
        time,
        status: askedAbout.length > 0 && askedAbout.every((id) => isTaken(id, time)) ? 'taken' : 'open',
      }));
      const body: AvailabilityResponse = {
        success: true,
        best_known: true,
        note: AVAILABILITY_NOTE,
        data: {
          date: query.date,
          doctor_id: query.doctor_id ?? null,
          treatment_id: query.treatment_id ?? null,
          duration_minutes: duration ?? null,
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
