import { beforeAll, describe, expect, it } from 'vitest';
import { AvailabilityResponse } from '../../../contract/bff.js';
import { DEFAULT_BOOKING_RULES } from '../../../contract/rules/booking-rules.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { grantToken, validBooking } from '../../server/support/test-server.js';
import { heldAt, startBff, fixtureIds, startStack, type RunningBff } from '../support/bff-harness.js';

/**
 * Availability that knows durations: a start is open only when the whole
 * appointment fits, ending by closing and, as far as the BFF knows, meeting
 * none of the dentist's booked time (for "any dentist", at least one dentist
 * free for all of it). The fixture clinic opens 08:00-18:00 on weekdays, has
 * two dentists, a 30-minute Check-up and a 90-minute Whitening; an
 * appointment without a treatment lasts 15 minutes there (bffClinicFixture).
 */

const THURSDAY = '2026-11-26';
/** A day of its own for a test that needs both dentists' bookings and no other test's. */
const FRIDAY = '2026-11-27';
let first: number;
let second: number;
let checkUp: number;
let whitening: number;

const stack = await startStack({ clock: new FakeClock(TEST_NOW) });
beforeAll(async () => {
  const ids = await fixtureIds(stack.bff);
  [first, second] = ids.dentists;
  checkUp = ids.treatmentLasting(30);
  whitening = ids.treatmentLasting(90);
});

async function slotsOf(query: string, bff: RunningBff = stack.bff, date = THURSDAY): Promise<Record<string, string>> {
  const res = await fetch(`${bff.api}/availability?date=${date}${query}`);
  expect(res.status).toBe(200);
  return Object.fromEntries(AvailabilityResponse.parse(await res.json()).data.slots.map((slot) => [slot.time, slot.status]));
}

const statuses = (slots: Record<string, string>, times: string[]) => times.map((time) => slots[time]);

async function book(body: Record<string, unknown>, bff: RunningBff = stack.bff): Promise<number> {
  const res = await fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validBooking({ appointment_date: THURSDAY, ...body })),
  });
  return res.status;
}

describe('the whole appointment, in GET /api/availability', () => {
  it('takes every start whose appointment would meet a 90-minute booking through the BFF, back-to-back left open', async () => {
    expect(await book({ doctor_id: first, treatment_id: whitening, appointment_time: '10:00' })).toBe(200);

    const fifteen = await slotsOf(`&doctor_id=${first}`);
    expect(statuses(fifteen, ['09:45', '10:00', '10:15', '10:45', '11:15', '11:30'])).toEqual(['open', 'taken', 'taken', 'taken', 'taken', 'open']);
    const ninety = await slotsOf(`&doctor_id=${first}&treatment_id=${whitening}`);
    // 08:30-10:00 ends as the booking starts; 08:45-10:15 meets it.
    expect(statuses(ninety, ['08:30', '08:45', '11:15', '11:30'])).toEqual(['open', 'taken', 'taken', 'open']);
    // The other dentist is free: without a dentist every start stays open.
    expect(statuses(await slotsOf(''), ['10:00', '10:45'])).toEqual(['open', 'open']);
  });

  it('offers a start to "any dentist" only while one dentist is free for all of it', async () => {
    expect(await book({ appointment_date: FRIDAY, doctor_id: first, treatment_id: whitening, appointment_time: '10:00' })).toBe(200); // 10:00-11:30
    expect(await book({ appointment_date: FRIDAY, doctor_id: second, appointment_time: '10:30' })).toBe(200); // 10:30-10:45

    const fifteen = await slotsOf('', stack.bff, FRIDAY);
    expect(statuses(fifteen, ['10:15', '10:30', '10:45'])).toEqual(['open', 'taken', 'open']);
    const thirty = await slotsOf(`&treatment_id=${checkUp}`, stack.bff, FRIDAY);
    // 10:00-10:30 fits the second dentist; 10:15-10:45 meets both.
    expect(statuses(thirty, ['10:00', '10:15', '10:30', '10:45'])).toEqual(['open', 'taken', 'taken', 'open']);
  });

  it('ends the day with the last start whose appointment ends by closing, the default length without a treatment', async () => {
    const longer = await startBff(stack.upstream.api, stack.clinic, {
      bookingRules: { ...DEFAULT_BOOKING_RULES, defaultDurationMinutes: 45 },
    });
    try {
      expect(Object.keys(await slotsOf('', longer)).at(-1)).toBe('17:15');

      expect(await book({ doctor_id: second, appointment_time: '15:00' }, longer)).toBe(200);

      expect(await heldAt(longer.takenSlots, second, THURSDAY, '15:44')).toBe(true);
      expect(await heldAt(longer.takenSlots, second, THURSDAY, '15:45')).toBe(false);
    } finally {
      await longer.close();
    }
  });

  it('takes only the asked start after an upstream 409, which does not say what else is held', async () => {
    const token = await grantToken(stack.upstream, stack.clinic);
    const behindItsBack = await fetch(`${stack.upstream.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-key': stack.clinic.appKey, authorization: `Bearer ${token}` },
      body: JSON.stringify(validBooking({ doctor_id: second, treatment_id: whitening, appointment_date: THURSDAY, appointment_time: '13:00' })),
    });
    expect(behindItsBack.status).toBe(200);

    expect(await book({ doctor_id: second, appointment_time: '13:00' })).toBe(409);

    expect(statuses(await slotsOf(`&doctor_id=${second}`), ['12:45', '13:00', '13:15'])).toEqual(['open', 'taken', 'open']);
  });
});
