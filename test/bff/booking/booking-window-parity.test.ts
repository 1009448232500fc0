import { describe, expect, it } from 'vitest';
import { BffBookingResponse, BffErrorBody } from '../../../contract/bff.js';
import { BookAppointmentResponse, ErrorBody } from '../../../contract/index.js';
import { authenticatedCaller, validBooking } from '../../server/support/test-server.js';
import { FakeClock } from '../../support/fake-clock.js';
import { bffClinicFixture, fixtureIds, startStack } from '../support/bff-harness.js';

/**
 * The reference server and the BFF in front of it refuse the same bookings for
 * their time, treatment or dentist, with the same words: both read the booking window and the
 * opening hours through contract/rules (booking-window.ts, opening-hours.ts)
 * and word a refusal through booking-time-words.ts. Both are told the same
 * clinic: New York time, 90 minutes of notice, 30 days of horizon (the
 * clinic file's booking_rules upstream, the BFF's settings here), open
 * 08:00-18:00 on weekdays and closed on Sunday. One fake clock for the stack.
 */
const clock = new FakeClock();
const RULES = { minNoticeMinutes: 90, horizonDays: 30, defaultDurationMinutes: 15 };
const stack = await startStack({
  server: { clock },
  clinic: {
    ...bffClinicFixture(),
    timezone: 'America/New_York',
    booking_rules: { min_notice_minutes: RULES.minNoticeMinutes, horizon_days: RULES.horizonDays, default_duration_minutes: RULES.defaultDurationMinutes },
  },
  bff: { clinicTimeZone: 'America/New_York', bookingRules: RULES },
});
const { treatmentLasting } = await fixtureIds(stack.bff);

/** Monday 23 November 2026, 09:00 in New York (EST, UTC-5): the earliest start is 10:30, the last day 23 December. */
const NINE_AM = '2026-11-23T14:00:00Z';

const toBff = (body: Record<string, unknown>) =>
  fetch(`${stack.bff.api}/appointments/book`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a booking sent to the reference server and to the BFF in front of it', () => {
  it.each([
    ['past by a minute', NINE_AM, { appointment_date: '2026-11-23', appointment_time: '08:59' }, 'in_past'],
    ['at this very minute', NINE_AM, { appointment_date: '2026-11-23', appointment_time: '09:00' }, 'in_past'],
    ['a day already past', NINE_AM, { appointment_date: '2026-11-20', appointment_time: '10:00' }, 'in_past'],
    ['inside the notice by a minute', NINE_AM, { appointment_date: '2026-11-23', appointment_time: '10:29' }, 'inside_notice'],
    ['at the notice boundary', NINE_AM, { appointment_date: '2026-11-23', appointment_time: '10:30' }, 'booked'],
    // Thirty seconds later the earliest start rounds up to 10:31, on both tiers.
    ['at the notice boundary half a minute later', '2026-11-23T14:00:30Z', { appointment_date: '2026-11-23', appointment_time: '10:30' }, 'inside_notice'],
    ['on the last day of the horizon', NINE_AM, { appointment_date: '2026-12-23', appointment_time: '10:00' }, 'booked'],
    ['one day past the horizon', NINE_AM, { appointment_date: '2026-12-24', appointment_time: '10:00' }, 'beyond_horizon'],
    // 04:00 UTC on Tuesday is 23:00 on Monday in New York: 00:15 on Tuesday is still ahead there, but sooner than the notice.
    ['inside the notice across the clinic\'s midnight', '2026-11-24T04:00:00Z', { appointment_date: '2026-11-24', appointment_time: '00:15' }, 'inside_notice'],
    ['on a day the clinic is closed (Sunday)', NINE_AM, { appointment_date: '2026-11-29', appointment_time: '10:00' }, 'closed_day'],
    ['before opening', NINE_AM, { appointment_date: '2026-11-24', appointment_time: '07:45' }, 'outside_hours'],
    ['at closing time', NINE_AM, { appointment_date: '2026-11-24', appointment_time: '18:00' }, 'outside_hours'],
    ['for a treatment ending after closing', NINE_AM, { appointment_date: '2026-11-24', appointment_time: '17:00', minutes: 90 }, 'ends_after_closing'],
    ['for a treatment ending at closing', NINE_AM, { appointment_date: '2026-11-24', appointment_time: '16:30', minutes: 90 }, 'booked'],
    ['for a treatment the clinic does not have', NINE_AM, { appointment_date: '2026-11-24', appointment_time: '10:00', treatment_id: 999999 }, 'unknown_treatment'],
    ['with a dentist the clinic does not have', NINE_AM, { appointment_date: '2026-11-24', appointment_time: '10:00', doctor_id: 999999 }, 'unknown_dentist'],
  ])('is refused or booked alike, %s', async (_case, at, change, expected) => {
    clock.set(at);
    const { minutes, ...fields } = change as Record<string, unknown> & { minutes?: number };
    const body = validBooking({ ...fields, ...(minutes ? { treatment_id: treatmentLasting(minutes) } : {}) });

    // A token of this moment: the clock moves between tests further than a token lives.
    const server = await authenticatedCaller(stack.upstream, stack.clinic);

    const [direct, relayed] = [await server.post('/appointments/book', body), await toBff(body)];

    expect([direct.status, relayed.status]).toEqual(expected === 'booked' ? [200, 200] : [400, 400]);
    if (expected === 'booked') {
      const booked = BookAppointmentResponse.parse(await direct.json());
      expect(BffBookingResponse.parse(await relayed.json()).message).toBe(booked.message);
      return;
    }
    const refusal = ErrorBody.parse(await direct.json());
    expect(refusal).toMatchObject({ success: false, error_code: 'validation_error', message: expect.stringMatching(/^Invalid request: /) });
    expect(BffErrorBody.parse(await relayed.json())).toEqual({ ...refusal, reason: expected });
  });
});
