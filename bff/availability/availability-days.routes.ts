import { AVAILABILITY_DAYS_PATH, AvailabilityDaysQuery, AvailabilityDaysResponse, type AvailabilityDay } from '../../contract/bff.js';
import { ApiError } from '../../contract/errors.js';
import { clinicNow } from '../../contract/rules/clinic-now.js';
import { addDays } from '../../contract/rules/clinic-time.js';
import { declaration, served, type AnyOperation } from '../../platform/operation.js';
import { commonErrors, errorAnswer, json, NoStore, tagged } from '../http/answers.js';
import { AVAILABILITY_NOTE, type AvailabilitySettings } from './availability.routes.js';
import type { ClinicFacts } from './clinic-facts.js';
import { bookableStarts, readQuestion, slotsOf } from './open-starts.js';
import type { TakenSlots } from './taken-slots.js';

/** Every date of a month (YYYY-MM), in order. */
function datesOf(month: string): string[] {
  const dates: string[] = [];
  for (let date = `${month}-01`; date.startsWith(month); date = addDays(date, 1)) dates.push(date);
  return dates;
}

/** What GET /api/availability/days declares: the same for every site. */
const GET_AVAILABILITY_DAYS = declaration({
  id: 'getAvailabilityDays',
  method: 'get',
  path: AVAILABILITY_DAYS_PATH,
  docs: {
    ...tagged('Availability'),
    summary: "A month's days, each with its number of open starts, as best known",
    description:
      'For each day of the month, how many starts GET /availability would list as open for the same dentist and ' +
      'treatment: 0 for a day the clinic is closed, a day passed, inside the notice (BOOKING_MIN_NOTICE_MINUTES) or ' +
      'beyond the horizon (BOOKING_HORIZON_DAYS), or with every start taken. Worked out from the cached content and ' +
      `what the BFF has learnt, with no call to the clinic system. ${AVAILABILITY_NOTE} Never cached.`,
  },
  request: { query: AvailabilityDaysQuery },
  // Set before the query is read, so that a refused one is not cached either.
  answerHeaders: { 'Cache-Control': 'no-store' },
  responses: {
    '200': { description: "The month's days.", headers: NoStore, ...json(AvailabilityDaysResponse) },
    '400': errorAnswer(
      'validation_error: a month that is not YYYY-MM, before this month or after the horizon (BOOKING_HORIZON_DAYS); a ' +
        'doctor_id that is not a dentist of the clinic; a treatment_id that is not an active treatment; an unknown query parameter.',
    ),
    ...commonErrors,
  },
});

/**
 * GET /api/availability/days?month=YYYY-MM[&doctor_id=N][&treatment_id=N]:
 * each day's number of open starts, counted exactly as GET /api/availability
 * lists them (open-starts.ts), so a calendar never offers a day that then
 * shows nothing free. From the cached content and what the BFF has learnt
 * only, never an upstream call of its own; a day with no bookable start (closed,
 * past, inside the notice, beyond the horizon) is 0 without looking up its
 * taken time. Never cached: it changes with each booking.
 */
export function availabilityDaysOperations(facts: ClinicFacts, taken: TakenSlots, { timeZone, rules, clock }: AvailabilitySettings): AnyOperation[] {
  const getAvailabilityDays = served(GET_AVAILABILITY_DAYS, {
    async handle({ query }, _req, res) {
      const now = clinicNow(clock.now(), timeZone, rules);
      const [first, last] = [now.date.slice(0, 7), now.lastBookableDate.slice(0, 7)];
      if (query.month < first || query.month > last) {
        throw new ApiError('validation_error', `month must be from this month (${first}) to ${last} (${rules.horizonDays} days ahead)`);
      }
      const question = await readQuestion(facts, query, rules);
      const days: AvailabilityDay[] = await Promise.all(
        datesOf(query.month).map(async (date) => {
          const starts = bookableStarts(question, date, now);
          if (starts.length === 0) return { date, open: 0 };
          const slots = slotsOf(question, starts, await taken.takenOn(date, question.dentists));
          return { date, open: slots.filter((slot) => slot.status === 'open').length };
        }),
      );
      const body: AvailabilityDaysResponse = {
        success: true,
        best_known: true,
        note: AVAILABILITY_NOTE,
        data: { month: query.month, doctor_id: query.doctor_id ?? null, treatment_id: query.treatment_id ?? null, time_zone: timeZone, days },
      };
      res.json(body);
    },
  });
  return [getAvailabilityDays];
}
