import { describe, expect, it } from 'vitest';
import { BookAppointmentResponse, ErrorBody } from '../../../contract/index.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { authenticatedCaller, seedClinic, validBooking, type Caller } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

/**
 * A clinic's notice and horizon (its booking rules: 120 minutes and 365 days
 * unless its file sets others). TEST_NOW is Monday 23 November 2026, 09:00 in
 * London; the fixture clinic opens 08:00-18:00 on weekdays.
 */
const clock = new FakeClock(TEST_NOW);
const ctx = useTestServer({
  clock,
  setup: async (server) => ({
    standard: await authenticatedCaller(server, await seedClinic(server)),
    dayAhead: await authenticatedCaller(server, await seedClinic(server, { ...clinicFixture('Day Ahead Dental'), booking_rules: { min_notice_minutes: 1440 } })),
    monthAhead: await authenticatedCaller(server, await seedClinic(server, { ...clinicFixture('Month Ahead Dental'), booking_rules: { horizon_days: 30 } })),
  }),
});

async function refusal(res: Response): Promise<string> {
  expect(res.status).toBe(400);
  const body = ErrorBody.parse(await res.json());
  expect(body.error_code).toBe('validation_error');
  return body.message;
}

const book = (caller: Caller, date: string, time: string) => caller.post('/appointments/book', validBooking({ appointment_date: date, appointment_time: time }));

/** A booking taken: 200 with the spec's body and the new appointment's id. */
async function expectBooked(res: Response): Promise<void> {
  expect(res.status).toBe(200);
  expect(BookAppointmentResponse.parse(await res.json()).data.appointment_id).toBeGreaterThan(0);
}

describe('POST /appointments/book and the clinic\'s minimum notice', () => {
  it('refuses a start less than 120 minutes ahead by default, naming the rule and the earliest start', async () => {
    const message = await refusal(await book(ctx.standard, '2026-11-23', '10:59'));

    expect(message).toBe(
      'Invalid request: appointment_date and appointment_time must be at least 120 minutes ahead (min_notice_minutes): ' +
        'the earliest is 2026-11-23 11:00 (clinic time Europe/London)',
    );
  });

  it('takes a start exactly the notice ahead', async () => {
    await expectBooked(await book(ctx.standard, '2026-11-23', '11:00'));
  });

  it('still calls a time already passed "in the past", not too soon', async () => {
    expect(await refusal(await book(ctx.standard, '2026-11-23', '08:59'))).toContain('are in the past');
  });

  it('carries a day\'s notice into the next day: tomorrow 08:30 is refused, 09:00 taken', async () => {
    expect(await refusal(await book(ctx.dayAhead, '2026-11-24', '08:30'))).toContain(
      'at least 1440 minutes ahead (min_notice_minutes): the earliest is 2026-11-24 09:00',
    );
    await expectBooked(await book(ctx.dayAhead, '2026-11-24', '09:00'));
  });
});

describe('POST /appointments/book and the clinic\'s horizon', () => {
  it('takes the last day of a 30-day horizon, and refuses the next naming the rule', async () => {
    await expectBooked(await book(ctx.monthAhead, '2026-12-23', '10:00'));

    expect(await refusal(await book(ctx.monthAhead, '2026-12-24', '10:00'))).toBe(
      'Invalid request: appointment_date must be within 30 days from today (horizon_days): the last is 2026-12-23',
    );
  });

  it('keeps the default 365 days for a clinic that set no horizon', async () => {
    await expectBooked(await book(ctx.standard, '2027-11-23', '10:00'));
    expect(await refusal(await book(ctx.standard, '2027-11-24', '10:00'))).toContain('within 365 days from today (horizon_days)');
  });
});
