import { beforeAll, describe, expect, it } from 'vitest';
import { AvailabilityDaysResponse, AvailabilityResponse, BffErrorBody } from '../../../contract/bff.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { validBooking } from '../../server/support/test-server.js';
import { startBff, fixtureIds, startStack, type RunningBff } from '../support/bff-harness.js';

/**
 * GET /api/availability/days: each day of a month with its number of open
 * starts, counted as GET /api/availability lists them. The fixture clinic
 * (Europe/London) opens 08:00-18:00 on weekdays and 09:00-13:00 on Saturdays,
 * has two dentists, a 30-minute Check-up and a 90-minute Whitening, and 15
 * minutes for an appointment without a treatment; the clock stands at
 * TEST_NOW, Monday 23 November 2026 09:00, and the notice is 120 minutes.
 */

let first: number;
let second: number;
let whitening: number;

const stack = await startStack({ clock: new FakeClock(TEST_NOW) });
beforeAll(async () => {
  const ids = await fixtureIds(stack.bff);
  [first, second] = ids.dentists;
  whitening = ids.treatmentLasting(90);
});

const daysOf = (query: string, bff: RunningBff = stack.bff) => fetch(`${bff.api}/availability/days?${query}`);

async function openPerDay(query: string, bff: RunningBff = stack.bff): Promise<Record<string, number>> {
  const res = await daysOf(query, bff);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return Object.fromEntries(AvailabilityDaysResponse.parse(await res.json()).data.days.map((day) => [day.date, day.open]));
}

async function openStarts(date: string, query: string): Promise<number> {
  const res = await fetch(`${stack.bff.api}/availability?date=${date}${query}`);
  expect(res.status).toBe(200);
  return AvailabilityResponse.parse(await res.json()).data.slots.filter((slot) => slot.status === 'open').length;
}

async function book(body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${stack.bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validBooking(body)),
  });
  expect(res.status).toBe(200);
}

describe('GET /api/availability/days', () => {
  it('counts every day of the month: 0 for days passed and closed, today from the notice on, a weekday whole', async () => {
    const res = await daysOf('month=2026-11');

    const body = AvailabilityDaysResponse.parse(await res.json());
    expect(body).toMatchObject({ success: true, best_known: true, data: { month: '2026-11', doctor_id: null, treatment_id: null } });
    expect(body.data.days.map((day) => day.date)).toHaveLength(30);
    const open = Object.fromEntries(body.data.days.map((day) => [day.date, day.open]));
    expect(open['2026-11-22']).toBe(0); // yesterday
    expect(open['2026-11-23']).toBe(28); // 11:00 to 17:45: 09:00 plus 120 minutes' notice
    expect(open['2026-11-24']).toBe(40); // 08:00 to 17:45
    expect(open['2026-11-28']).toBe(16); // Saturday, 09:00 to 12:45
    expect(open['2026-11-29']).toBe(0); // Sunday, closed
  });

  it("counts only starts from which the treatment's whole length ends by closing", async () => {
    expect((await openPerDay(`month=2026-11&treatment_id=${whitening}`))['2026-11-24']).toBe(35); // 08:00 to 16:30
  });

  it("takes off a dentist's day every start a 90-minute booking through the BFF meets, and agrees with GET /api/availability", async () => {
    await book({ doctor_id: first, treatment_id: whitening, appointment_date: '2026-11-25', appointment_time: '10:00' });

    const fifteen = await openPerDay(`month=2026-11&doctor_id=${first}`);
    expect(fifteen['2026-11-25']).toBe(40 - 6); // 10:00 to 11:15 meet 10:00-11:30
    const ninety = await openPerDay(`month=2026-11&doctor_id=${first}&treatment_id=${whitening}`);
    expect(ninety['2026-11-25']).toBe(35 - 11); // 08:45 to 11:15
    // For any dentist the second is still free.
    expect((await openPerDay('month=2026-11'))['2026-11-25']).toBe(40);
    for (const [date, open] of Object.entries(ninety).filter(([date]) => date >= '2026-11-23')) {
      expect(await openStarts(date, `&doctor_id=${first}&treatment_id=${whitening}`), date).toBe(open);
    }
  });

  it('counts 0 for a day every dentist is known to be booked all day', async () => {
    for (const doctorId of [first, second]) await stack.bff.takenSlots.markTaken(doctorId, '2026-11-27', { start: '08:00', end: '18:00' });

    expect((await openPerDay('month=2026-11'))['2026-11-27']).toBe(0);
  });

  it('asks the clinic system nothing', async () => {
    await openPerDay('month=2026-11');
    const before = stack.upstream.logs.length;

    await openPerDay(`month=2026-12&doctor_id=${second}&treatment_id=${whitening}`);

    expect(stack.upstream.logs.length).toBe(before);
  });

  it('counts 0 past the horizon, and refuses a month wholly past it', async () => {
    const near = await startBff(stack.upstream.api, stack.clinic, { bookingRules: { ...stack.bff.config.bookingRules, horizonDays: 2 } });
    try {
      const open = await openPerDay('month=2026-11', near);
      expect([open['2026-11-25'], open['2026-11-26']]).toEqual([40, 0]);
      expect((await daysOf('month=2026-12', near)).status).toBe(400);
    } finally {
      await near.close();
    }
  });

  it("counts today's starts from now on with no notice", async () => {
    const soon = await startBff(stack.upstream.api, stack.clinic, { bookingRules: { ...stack.bff.config.bookingRules, minNoticeMinutes: 0 } });
    try {
      expect((await openPerDay('month=2026-11', soon))['2026-11-23']).toBe(35); // 09:15 to 17:45
    } finally {
      await soon.close();
    }
  });

  it.each([
    ['a month that is not a month', 'month=2026-13', 'month'],
    ['no month', '', 'month'],
    ['last month', 'month=2026-10', 'month'],
    ['a month past the horizon', 'month=2027-12', 'month'],
    ['a doctor_id that is no dentist of the clinic', 'month=2026-11&doctor_id=9999', 'doctor_id'],
    ['a treatment_id that is no active treatment', 'month=2026-11&treatment_id=9999', 'treatment_id'],
    ['an unknown query parameter', 'month=2026-11&date=2026-11-24', 'date'],
  ])('answers 400 validation_error for %s', async (_name, query, field) => {
    const res = await daysOf(query);

    expect(res.status).toBe(400);
    const body = BffErrorBody.parse(await res.json());
    expect(body.error_code).toBe('validation_error');
    expect(body.message).toContain(field);
  });

  it('accepts the month of the last bookable day', async () => {
    const open = await openPerDay('month=2027-11');

    expect([open['2027-11-23'], open['2027-11-24']]).toEqual([40, 0]); // a Tuesday 365 days ahead, then past the horizon
  });
});
