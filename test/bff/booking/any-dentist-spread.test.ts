import { beforeAll, describe, expect, it } from 'vitest';
import { BffBookingResponse } from '../../../contract/bff.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { validBooking } from '../../server/support/test-server.js';
import { fixtureIds, startStack } from '../support/bff-harness.js';

/**
 * "Any dentist" spreads the work: among the dentists free for the whole
 * appointment as best known, the BFF books the one with the fewest bookings
 * it knows of that day, ties going by the clinic's list order. The fixture
 * clinic has two dentists and a 90-minute Whitening; an appointment without a
 * treatment lasts 15 minutes; the clock stands at Monday 23 November 2026 09:00.
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

/** Books and answers the dentist booked. */
async function dentistBooked(body: Record<string, unknown>): Promise<number | null> {
  const res = await fetch(`${stack.bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validBooking(body)),
  });
  expect(res.status).toBe(200);
  return BffBookingResponse.parse(await res.json()).data.doctor_id;
}

describe('a booking for any dentist', () => {
  it('goes to the dentist with the fewest bookings known that day, the first listed on a tie', async () => {
    const day = { appointment_date: '2026-11-30' };
    const chosen = [];
    for (const appointment_time of ['09:00', '10:00', '11:00', '12:00']) chosen.push(await dentistBooked({ ...day, appointment_time }));

    expect(chosen).toEqual([first, second, first, second]);
  });

  it('counts the bookings of that day only', async () => {
    expect(await dentistBooked({ doctor_id: second, appointment_date: '2026-12-01', appointment_time: '09:00' })).toBe(second);

    // Monday the 30th left them even; the 1st has one booking, the second dentist's.
    expect(await dentistBooked({ appointment_date: '2026-12-01', appointment_time: '10:00' })).toBe(first);
  });

  it('passes over a less booked dentist who is not free for the whole appointment', async () => {
    const day = { appointment_date: '2026-12-02' };
    await dentistBooked({ ...day, doctor_id: second, appointment_time: '08:00' });
    await dentistBooked({ ...day, doctor_id: second, appointment_time: '08:15' });
    await dentistBooked({ ...day, doctor_id: first, appointment_time: '10:00' }); // 10:00-10:15

    const before = stack.upstreamHits('/appointments/book');

    // 09:00-10:30 meets the first dentist's 10:00, though the second has more bookings: the first is not even asked.
    expect(await dentistBooked({ ...day, treatment_id: whitening, appointment_time: '09:00' })).toBe(second);
    expect(stack.upstreamHits('/appointments/book')).toBe(before + 1);
    expect(await dentistBooked({ ...day, appointment_time: '12:00' })).toBe(first);
  });
});
