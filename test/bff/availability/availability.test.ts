import { beforeAll, describe, expect, it } from 'vitest';
import { AvailabilityResponse, BffBookingResponse } from '../../../contract/bff.js';
import { MemoryTakenSlots } from '../../../bff/availability/taken-slots.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { validBooking } from '../../server/support/test-server.js';
import { appointmentIdOf, heldAt, startBff, startStack, type RunningBff } from '../support/bff-harness.js';
import { expectError } from '../../support/expect-error.js';

/**
 * GET /api/availability: candidate starts from the cached opening hours, each
 * open or taken as the BFF has learnt from bookings and upstream 409s. The
 * fixture clinic (Europe/London) opens 08:00-18:00 on weekdays and has two
 * dentists; the BFF's clock starts at TEST_NOW, Monday 23 November 2026 09:00.
 */

const TUESDAY = '2026-11-24';
/** A day no other test of this file books: every dentist has as many bookings known (none). */
const WEDNESDAY = '2026-11-25';
let dentists: number[];
let treatments: { treatment_id: number; duration_minutes: number }[];

const stack = await startStack({ clock: new FakeClock(TEST_NOW) });
beforeAll(async () => {
  dentists = ((await (await fetch(`${stack.bff.api}/dentists`)).json()) as { data: { doctor_id: number }[] }).data.map((d) => d.doctor_id);
  treatments = ((await (await fetch(`${stack.bff.api}/treatments`)).json()) as { data: typeof treatments }).data;
});

const availability = (query: string, bff: RunningBff = stack.bff) => fetch(`${bff.api}/availability?${query}`);

async function slotsOf(query: string, bff: RunningBff = stack.bff): Promise<Record<string, string>> {
  const res = await availability(query, bff);
  expect(res.status).toBe(200);
  const body = AvailabilityResponse.parse(await res.json());
  return Object.fromEntries(body.data.slots.map((slot) => [slot.time, slot.status]));
}

const book = (body: Record<string, unknown>, headers: Record<string, string> = {}, bff: RunningBff = stack.bff) =>
  fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function booked(body: Record<string, unknown>, headers: Record<string, string> = {}, bff: RunningBff = stack.bff) {
  const res = await book(body, headers, bff);
  expect(res.status).toBe(200);
  return BffBookingResponse.parse(await res.json()).data;
}

/** Books straight at the reference server, behind the BFF's back (as the clinic's phone line would). */
async function bookUpstream(body: Record<string, unknown>): Promise<void> {
  const api = stack.upstream.api;
  const grant = await fetch(`${api}/granttoken`, {
    method: 'POST',
    headers: { 'x-app-key': stack.clinic.appKey, 'x-app-secret-key': stack.clinic.secret },
  });
  const { access_token } = (await grant.json()) as { access_token: string };
  const res = await fetch(`${api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-key': stack.clinic.appKey, authorization: `Bearer ${access_token}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe('GET /api/availability', () => {
  it("lists the day's starts every 15 minutes from opening to closing minus 15, all open, as best known", async () => {
    const res = await availability(`date=${TUESDAY}`);

    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = AvailabilityResponse.parse(await res.json());
    expect(body).toMatchObject({ success: true, best_known: true, data: { date: TUESDAY, doctor_id: null, time_zone: 'Europe/London' } });
    expect(body.note).toContain('by phone');
    expect(body.data.slots).toHaveLength(40);
    expect(body.data.slots[0]).toEqual({ time: '08:00', status: 'open' });
    expect(body.data.slots.at(-1)).toEqual({ time: '17:45', status: 'open' });
  });

  it("ends with the last start that still ends by closing, for the treatment's duration", async () => {
    const longest = treatments.reduce((a, b) => (a.duration_minutes > b.duration_minutes ? a : b));

    const res = await availability(`date=${TUESDAY}&treatment_id=${longest.treatment_id}`);

    const body = AvailabilityResponse.parse(await res.json());
    expect(body.data.duration_minutes).toBe(longest.duration_minutes);
    expect(body.data.slots.at(-1)?.time).toBe('16:30'); // 90 minutes before 18:00
  });

  it('lists on today only the starts at least the notice (120 minutes) ahead in the clinic time zone', async () => {
    const slots = await slotsOf('date=2026-11-23');

    expect(Object.keys(slots)[0]).toBe('11:00');
  });

  it('lists no start on a closed day', async () => {
    expect(await slotsOf('date=2026-11-29')).toEqual({});
  });
});

describe('what the BFF learns about taken slots', () => {
  it('marks a slot taken for the dentist once a booking of it through the BFF succeeds', async () => {
    const [first, second] = dentists as [number, number];
    expect((await slotsOf(`date=${TUESDAY}&doctor_id=${first}`))['11:00']).toBe('open');

    await booked(validBooking({ doctor_id: first, appointment_time: '11:00' }));

    expect((await slotsOf(`date=${TUESDAY}&doctor_id=${first}`))['11:00']).toBe('taken');
    expect((await slotsOf(`date=${TUESDAY}&doctor_id=${second}`))['11:00']).toBe('open');
    // Without a dentist, a start stays open while any dentist may be free.
    expect((await slotsOf(`date=${TUESDAY}`))['11:00']).toBe('open');
  });

  it('marks a slot taken once upstream answers 409 for it (booked behind its back)', async () => {
    const [first] = dentists as [number];
    await bookUpstream(validBooking({ doctor_id: first, appointment_time: '11:15' }));
    expect((await slotsOf(`date=${TUESDAY}&doctor_id=${first}`))['11:15']).toBe('open');

    const res = await book(validBooking({ doctor_id: first, appointment_time: '11:15' }));

    await expectError(res, 409, 'slot_unavailable');
    expect((await slotsOf(`date=${TUESDAY}&doctor_id=${first}`))['11:15']).toBe('taken');
  });

  it('leaves a slot open when upstream refuses the booking for another reason (422, an Idempotency-Key used for another)', async () => {
    const [first] = dentists as [number];
    await booked(validBooking({ doctor_id: first, appointment_time: '11:30' }), { 'idempotency-key': 'reused-1' });

    const res = await book(validBooking({ doctor_id: first, appointment_time: '11:45' }), { 'idempotency-key': 'reused-1' });

    await expectError(res, 422, 'idempotency_key_reused');
    expect((await slotsOf(`date=${TUESDAY}&doctor_id=${first}`))['11:45']).toBe('open');
  });

  it('leaves a slot open when the BFF refuses the booking itself (400, an unknown treatment)', async () => {
    const [first] = dentists as [number];

    const res = await book(validBooking({ doctor_id: first, appointment_time: '13:00', treatment_id: 999_999 }));

    await expectError(res, 400, { error_code: 'validation_error', reason: 'unknown_treatment' }, 'treatment_id');
    expect((await slotsOf(`date=${TUESDAY}&doctor_id=${first}`))['13:00']).toBe('open');
  });
});

describe('a booking for any dentist (no doctor_id)', () => {
  it('books the next dentist after a 409 for the first, with keys derived from the patient’s, and names the dentist', async () => {
    const [first, second] = dentists as [number, number];
    await bookUpstream(validBooking({ doctor_id: first, appointment_date: WEDNESDAY, appointment_time: '12:00' }));

    const result = await booked(validBooking({ patient_name: 'Any Dentist', appointment_date: WEDNESDAY, appointment_time: '12:00' }), {
      'idempotency-key': 'any-1',
    });

    expect(result.doctor_id).toBe(second);
    const row = await stack.upstream.db
      .selectFrom('appointments')
      .selectAll()
      .where('appointment_id', '=', appointmentIdOf(stack.bff, result.reference))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ doctor_id: second, patient_name: 'Any Dentist' });
    const keys = await stack.upstream.db.selectFrom('idempotency_keys').select('idempotency_key').where('idempotency_key', 'like', 'any-1%').execute();
    expect(keys.map((k) => k.idempotency_key).sort()).toEqual([`any-1:doctor-${first}`, `any-1:doctor-${second}`].sort());
    expect((await slotsOf(`date=${WEDNESDAY}&doctor_id=${first}`))['12:00']).toBe('taken');
  });

  it('skips a dentist already known to be taken, without asking upstream', async () => {
    const [first, second] = dentists as [number, number];
    await booked(validBooking({ doctor_id: first, appointment_time: '12:15' }));
    const before = stack.upstreamHits('/appointments/book');

    const result = await booked(validBooking({ appointment_time: '12:15' }));

    expect(result.doctor_id).toBe(second);
    expect(stack.upstreamHits('/appointments/book')).toBe(before + 1);
  });

  it('answers a re-send with the same key with the same booking, though its dentist is now known taken', async () => {
    const body = validBooking({ patient_name: 'Twice Any', appointment_time: '12:30' });
    const first = await booked(body, { 'idempotency-key': 'any-twice' });

    const second = await booked(body, { 'idempotency-key': 'any-twice' });

    expect(second).toEqual(first);
  });

  it('answers 409 slot_unavailable when every dentist is taken, and the slot shows taken without a dentist', async () => {
    for (const doctorId of dentists) await booked(validBooking({ doctor_id: doctorId, appointment_time: '12:45' }));
    const before = stack.upstreamHits('/appointments/book');

    await expectError(await book(validBooking({ appointment_time: '12:45' })), 409, 'slot_unavailable');

    expect(stack.upstreamHits('/appointments/book')).toBe(before);
    expect((await slotsOf(`date=${TUESDAY}`))['12:45']).toBe('taken');
  });
});

describe('validation of GET /api/availability', () => {
  it.each([
    ['a date that is not a date', 'date=2026-13-01', 'date'],
    ['no date', '', 'date'],
    ['yesterday', 'date=2026-11-22', 'date'],
    ['a day more than 365 days ahead', 'date=2027-11-24', 'date'],
    ['a doctor_id that is no dentist of the clinic', `date=${TUESDAY}&doctor_id=9999`, 'doctor_id'],
    ['a doctor_id that is not a number', `date=${TUESDAY}&doctor_id=abc`, 'doctor_id'],
    ['a treatment_id that is no active treatment', `date=${TUESDAY}&treatment_id=9999`, 'treatment_id'],
    ['an unknown query parameter', `date=${TUESDAY}&dentist=1`, 'dentist'],
  ])('answers 400 validation_error for %s', async (_name, query, field) => {
    await expectError(await availability(query), 400, 'validation_error', field);
  });

  it('accepts the day 365 days ahead', async () => {
    const res = await availability('date=2027-11-23');

    expect(res.status).toBe(200);
    expect(AvailabilityResponse.parse(await res.json()).data.slots.length).toBeGreaterThan(0);
  });
});

/** Without REDIS_URL the BFF's taken slots are the in-memory ones, whose size is bounded. */
function localSlots(bff: RunningBff): MemoryTakenSlots {
  expect(bff.takenSlots).toBeInstanceOf(MemoryTakenSlots);
  return bff.takenSlots as MemoryTakenSlots;
}

describe('how long and how much the BFF remembers', () => {
  it('forgets a taken interval once it has ended', async () => {
    const clock = new FakeClock(TEST_NOW);
    const bff = await startBff(stack.upstream.api, stack.clinic, {}, clock);
    try {
      const [first] = dentists as [number];
      await booked(validBooking({ doctor_id: first, appointment_time: '13:00' }), {}, bff);
      expect(await heldAt(bff.takenSlots, first, TUESDAY, '13:00')).toBe(true);

      clock.set('2026-11-24T13:14:00Z'); // 13:14 in London (GMT), the booking's last minute
      expect(await heldAt(bff.takenSlots, first, TUESDAY, '13:00')).toBe(true);
      clock.set('2026-11-24T13:15:01Z');

      expect(await heldAt(bff.takenSlots, first, TUESDAY, '13:00')).toBe(false);
      expect(localSlots(bff).size).toBe(0);
    } finally {
      await bff.close();
    }
  });

  it('keeps at most AVAILABILITY_MAX_SLOTS, dropping the oldest first', async () => {
    const bff = await startBff(stack.upstream.api, stack.clinic, { availabilityMaxSlots: 3 }, new FakeClock(TEST_NOW));
    try {
      const [first] = dentists as [number];
      const times = ['14:00', '14:15', '14:30', '14:45', '15:00'];
      for (const time of times) await booked(validBooking({ doctor_id: first, appointment_time: time }), {}, bff);

      expect(localSlots(bff).size).toBe(3);
      expect(await Promise.all(times.map((time) => heldAt(bff.takenSlots, first, TUESDAY, time)))).toEqual([false, false, true, true, true]);
    } finally {
      await bff.close();
    }
  });
});
