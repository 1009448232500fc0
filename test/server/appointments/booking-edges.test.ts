import { describe, expect, it } from 'vitest';
import { BookAppointmentResponse } from '../../../contract/index.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { twoClinics, useTestServer } from '../support/use-test-server.js';
import { expectError } from '../../support/expect-error.js';

/**
 * POST /appointments/book at the edges of its rules (booking.test.ts has the
 * rules themselves): the first minute that is not past, the last day within
 * the horizon, what the answers say, and which answers Idempotency-Key keeps.
 * TEST_NOW is Monday 23 November 2026, 09:00 in London.
 */
const clock = new FakeClock(TEST_NOW);
const ctx = useTestServer({ clock, setup: twoClinics() });

const book = (body: unknown, headers?: Record<string, string>) => ctx.caller.post('/appointments/book', body, headers);

const firstIdOf = async (table: 'dentists' | 'treatments', column: 'doctor_id' | 'treatment_id', careId: number, index = 0) => {
  const rows = await ctx.server.db.selectFrom(table).select(column).where('care_id', '=', careId).orderBy(column).execute();
  return (rows as Record<string, number>[]).map((row) => row[column]!)[index]!;
};

describe('POST /appointments/book at the edges of its rules', () => {
  it('answers a message saying the appointment is booked', async () => {
    const res = await book(validBooking({ appointment_time: '13:00' }));

    expect(res.status).toBe(200);
    expect(BookAppointmentResponse.parse(await res.json()).message).toBe('Appointment booked successfully');
  });

  it('refuses the current minute in the clinic time zone as past, and takes the next one (for a clinic that needs no notice)', async () => {
    const noNotice = await authenticatedCaller(ctx.server, await seedClinic(ctx.server, { ...clinicFixture('No Notice'), booking_rules: { min_notice_minutes: 0 } }));
    const now = await noNotice.post('/appointments/book', validBooking({ appointment_date: '2026-11-23', appointment_time: '09:00' }));
    expect((await expectError(now, 400, 'validation_error')).message).toContain('past');

    expect((await noNotice.post('/appointments/book', validBooking({ appointment_date: '2026-11-23', appointment_time: '09:01' }))).status).toBe(200);
  });

  it('takes a booking exactly 365 days ahead, and refuses one 366 days ahead', async () => {
    // 2027-11-23 is a Tuesday and 2027-11-24 a Wednesday, both open.
    expect((await book(validBooking({ appointment_date: '2027-11-23' }))).status).toBe(200);

    expect((await expectError(await book(validBooking({ appointment_date: '2027-11-24' })), 400, 'validation_error')).message).toContain('365 days');
  });

  it('says in a 409 when the dentist is booked and that another time is needed', async () => {
    const doctor = await firstIdOf('dentists', 'doctor_id', ctx.clinic.careId);
    const slot = validBooking({ doctor_id: doctor, appointment_date: '2026-12-03', appointment_time: '11:00' });
    expect((await book(slot)).status).toBe(200);

    const { message } = await expectError(await book({ ...slot, patient_name: 'Someone Else' }), 409, 'slot_unavailable');

    // No treatment: the clinic's default length, 30 minutes.
    expect(message).toBe('This dentist is already booked from 11:00 to 11:30 that day; choose another time');
  });
});

describe('POST /appointments/book with an Idempotency-Key', () => {
  it('replays a refusal as it was first answered, even once the slot has been freed', async () => {
    const doctor = await firstIdOf('dentists', 'doctor_id', ctx.clinic.careId);
    const slot = validBooking({ doctor_id: doctor, appointment_date: '2026-12-04', appointment_time: '11:00' });
    const taken = BookAppointmentResponse.parse(await (await book(slot)).json());
    const refused = await book({ ...slot, patient_name: 'Second Patient' }, { 'idempotency-key': 'refused-1' });
    const { message: firstMessage } = await expectError(refused, 409, 'slot_unavailable');
    await ctx.server.db.updateTable('appointments').set({ status: 'Cancelled' }).where('appointment_id', '=', taken.data.appointment_id).execute();

    const again = await book({ ...slot, patient_name: 'Second Patient' }, { 'idempotency-key': 'refused-1' });

    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await expectError(again, 409, 'slot_unavailable')).message).toBe(firstMessage);
  });

  it('replays a booking without the Idempotent-Replayed header the first time', async () => {
    const first = await book(validBooking({ appointment_date: '2026-12-07', appointment_time: '09:00' }), { 'idempotency-key': 'fresh-1' });

    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
  });

  // Numbers as well as text: a fingerprint that read every number alike would replay another booking.
  it.each([
    ['another dentist', '09:00', async () => ({ doctor_id: await firstIdOf('dentists', 'doctor_id', ctx.clinic.careId, 1) })],
    ['another treatment', '10:00', async () => ({ treatment_id: await firstIdOf('treatments', 'treatment_id', ctx.clinic.careId, 1) })],
    ['another patient name', '11:00', async () => ({ patient_name: 'Jane Doh' })],
  ])('answers 422, telling to use a new key, for the same key with %s', async (_case, time, change) => {
    const doctor = await firstIdOf('dentists', 'doctor_id', ctx.clinic.careId);
    const treatment = await firstIdOf('treatments', 'treatment_id', ctx.clinic.careId);
    const body = validBooking({ doctor_id: doctor, treatment_id: treatment, appointment_date: '2026-12-08', appointment_time: time });
    const key = `changed-at-${time}`;
    expect((await book(body, { 'idempotency-key': key })).status).toBe(200);

    const res = await book({ ...body, ...(await change()) }, { 'idempotency-key': key });

    expect((await expectError(res, 422, 'idempotency_key_reused')).message).toBe(
      'This Idempotency-Key was already used with a different request body; use a new key for a new booking',
    );
  });
});
