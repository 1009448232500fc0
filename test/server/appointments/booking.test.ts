import { describe, expect, it } from 'vitest';
import { BookAppointmentResponse } from '../../../contract/index.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { authenticatedCaller, removeDb, seedClinic, startTestServer, validBooking } from '../support/test-server.js';
import { twoClinics, useTestServer } from '../support/use-test-server.js';
import { expectError } from '../../support/expect-error.js';

const clock = new FakeClock(TEST_NOW);
const ctx = useTestServer({ clock, setup: twoClinics() });

const book = (body: unknown, headers?: Record<string, string>) => ctx.caller.post('/appointments/book', body, headers);

const idsOf = async (careId: number) =>
  (await ctx.server.db.selectFrom('treatments').select('treatment_id').where('care_id', '=', careId).orderBy('treatment_id').execute()).map((r) => r.treatment_id);
const doctorsOf = async (careId: number) =>
  (await ctx.server.db.selectFrom('dentists').select('doctor_id').where('care_id', '=', careId).orderBy('doctor_id').execute()).map((r) => r.doctor_id);

describe('POST /appointments/book', () => {
  describe('with a valid booking', () => {
    it('creates a Scheduled appointment with every field as sent and answers its appointment_id', async () => {
      const [treatmentId] = await idsOf(ctx.clinic.careId);
      const [doctorId] = await doctorsOf(ctx.clinic.careId);
      const res = await book(
        validBooking({ address: '2 Low Road', doctor_id: doctorId, treatment_id: treatmentId, note: 'Nervous patient', appointment_time: '11:00' }),
      );
      expect(res.status).toBe(200);
      const body = BookAppointmentResponse.parse(await res.json());
      expect(body).toEqual({ success: true, message: expect.any(String), data: { appointment_id: expect.any(Number) } });

      const row = await ctx.server.db.selectFrom('appointments').selectAll().where('appointment_id', '=', body.data.appointment_id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        care_id: ctx.clinic.careId,
        patient_name: 'Jane Doe',
        patient_phone: '+44 7700 900123',
        address: '2 Low Road',
        appointment_date: '2026-11-24',
        appointment_time: '11:00',
        doctor_id: doctorId,
        treatment_id: treatmentId,
        note: 'Nervous patient',
        status: 'Scheduled',
      });
    });

    it('accepts a booking without doctor_id and treatment_id (both optional)', async () => {
      const res = await book(validBooking({ appointment_time: '12:00' }));
      expect(res.status).toBe(200);
      expect(BookAppointmentResponse.parse(await res.json()).data.appointment_id).toBeGreaterThan(0);
    });

    it('stores unicode and SQL-looking text verbatim', async () => {
      const name = "Zoë O'Brien-Łukasz 山田 🦷'; DROP TABLE appointments; --";
      const res = await book(validBooking({ patient_name: name, note: "1' OR '1'='1", appointment_time: '12:30' }));
      expect(res.status).toBe(200);
      const { data } = BookAppointmentResponse.parse(await res.json());
      const row = await ctx.server.db.selectFrom('appointments').selectAll().where('appointment_id', '=', data.appointment_id).executeTakeFirstOrThrow();
      expect(row.patient_name).toBe(name);
      expect(row.note).toBe("1' OR '1'='1");
    });
  });

  describe('with missing or malformed fields', () => {
    it('answers 400 validation_error naming every missing required field', async () => {
      await expectError(await book({}), 400, 'validation_error', 'patient_name', 'patient_phone', 'appointment_date', 'appointment_time');
    });

    it.each([
      ['a date that does not exist', { appointment_date: '2026-02-30' }, 'appointment_date'],
      ['a date in another format', { appointment_date: '24/11/2026' }, 'appointment_date'],
      ['a 12-hour time', { appointment_time: '10:00 AM' }, 'appointment_time'],
      ['an hour past 23', { appointment_time: '24:00' }, 'appointment_time'],
      ['a numeric patient_name', { patient_name: 42 }, 'patient_name'],
      ['a blank patient_name', { patient_name: '   ' }, 'patient_name'],
      ['a phone made of letters', { patient_phone: 'call me maybe' }, 'patient_phone'],
      ['a doctor_id given as a string', { doctor_id: '1' }, 'doctor_id'],
      ['a fractional treatment_id', { treatment_id: 1.5 }, 'treatment_id'],
      ['a negative doctor_id', { doctor_id: -1 }, 'doctor_id'],
      ['a patient_name over 100 characters', { patient_name: 'a'.repeat(101) }, 'patient_name'],
      ['a note over 1000 characters', { note: 'n'.repeat(1001) }, 'note'],
      ['an unknown field', { is_vip: true }, 'is_vip'],
    ])('answers 400 validation_error for %s, naming the field', async (_name, change, field) => {
      await expectError(await book(validBooking(change)), 400, 'validation_error', field);
    });

    it.each([
      ['null', 'null'],
      ['an array', '[]'],
      ['a string', '"hello"'],
    ])('answers 400 validation_error when the body is %s', async (_name, raw) => {
      await expectError(await book(raw), 400, 'validation_error');
    });

    it('answers 400 validation_error, not 500, for malformed JSON', async () => {
      await expectError(await book('{"patient_name": "Jane",'), 400, 'validation_error', 'JSON');
    });

    it('answers 413 payload_too_large for a body over 16 KB', async () => {
      await expectError(await book(validBooking({ note: 'x'.repeat(17 * 1024) })), 413, 'payload_too_large');
    });

    it('answers 415 unsupported_media_type for a booking not sent as application/json', async () => {
      const form = new URLSearchParams(validBooking() as Record<string, string>).toString();
      await expectError(await book(form, { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
      await expectError(await book(JSON.stringify(validBooking()), { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    });
  });

  describe('against the clinic rules', () => {
    it('answers 400 for a date in the past', async () => {
      await expectError(await book(validBooking({ appointment_date: '2026-11-20' })), 400, 'validation_error', 'past');
    });

    it('answers 400 for an earlier time today in the clinic time zone, and accepts a later one', async () => {
      // TEST_NOW is 09:00 in London; a later time today must also be past the clinic's 120 minutes of notice.
      await expectError(await book(validBooking({ appointment_date: '2026-11-23', appointment_time: '08:30' })), 400, 'validation_error', 'past');
      expect((await book(validBooking({ appointment_date: '2026-11-23', appointment_time: '11:30' }))).status).toBe(200);
    });

    it('answers 400 for a date more than a year ahead', async () => {
      await expectError(await book(validBooking({ appointment_date: '2027-11-30' })), 400, 'validation_error', '365 days');
    });

    it('answers 400 on a day the clinic is closed', async () => {
      await expectError(await book(validBooking({ appointment_date: '2026-11-29' })), 400, 'validation_error', 'closed on Sunday');
    });

    it('answers 400 on a day missing from opening_hours', async () => {
      const file = clinicFixture('No Saturdays');
      delete file.website.opening_hours.Saturday;
      const noSaturdays = await authenticatedCaller(ctx.server, await seedClinic(ctx.server, file));
      const res = await noSaturdays.post('/appointments/book', validBooking({ appointment_date: '2026-11-28' }));
      await expectError(res, 400, 'validation_error', 'closed on Saturday');
    });

    it.each([
      ['before opening', '07:59'],
      ['at closing time', '18:00'],
      ['after closing', '19:30'],
    ])('answers 400 for a time %s', async (_name, time) => {
      await expectError(await book(validBooking({ appointment_time: time })), 400, 'validation_error', 'opening hours', '08:00-18:00');
    });

    it('answers 400 when the treatment would end after closing', async () => {
      const [, whitening] = await idsOf(ctx.clinic.careId); // 90 minutes
      await expectError(
        await book(validBooking({ treatment_id: whitening, appointment_time: '17:00' })),
        400,
        'validation_error',
        'after closing',
      );
    });

    it('answers 400 for a doctor_id or treatment_id of another clinic', async () => {
      const [foreignDoctor] = await doctorsOf(ctx.otherClinic.careId);
      const [foreignTreatment] = await idsOf(ctx.otherClinic.careId);
      await expectError(await book(validBooking({ doctor_id: foreignDoctor })), 400, 'validation_error', 'doctor_id');
      await expectError(await book(validBooking({ treatment_id: foreignTreatment })), 400, 'validation_error', 'treatment_id');
    });

    it('answers 400 for a treatment and a dentist given together when either is not one of the clinic', async () => {
      const [treatment, , inactive] = await idsOf(ctx.clinic.careId);
      const [doctor] = await doctorsOf(ctx.clinic.careId);
      const [foreignDoctor] = await doctorsOf(ctx.otherClinic.careId);
      const [foreignTreatment] = await idsOf(ctx.otherClinic.careId);
      await expectError(await book(validBooking({ treatment_id: treatment, doctor_id: foreignDoctor })), 400, 'validation_error', 'doctor_id');
      await expectError(await book(validBooking({ treatment_id: inactive, doctor_id: doctor })), 400, 'validation_error', 'treatment_id');
      await expectError(await book(validBooking({ treatment_id: foreignTreatment, doctor_id: doctor })), 400, 'validation_error', 'treatment_id');
    });

    it('answers 400 for an inactive treatment', async () => {
      const [, , inactive] = await idsOf(ctx.clinic.careId);
      await expectError(await book(validBooking({ treatment_id: inactive })), 400, 'validation_error', 'treatment_id');
    });

    it('answers 409 slot_unavailable when the dentist is already Scheduled at that date and time', async () => {
      const [, doctor] = await doctorsOf(ctx.clinic.careId);
      const slot = validBooking({ doctor_id: doctor, appointment_date: '2026-11-25', appointment_time: '14:00' });
      expect((await book(slot)).status).toBe(200);
      await expectError(await book({ ...slot, patient_name: 'Someone Else' }), 409, 'slot_unavailable');
      // Another dentist, or no dentist, at the same time is fine.
      expect((await book({ ...slot, doctor_id: undefined })).status).toBe(200);
    });

    it('lets exactly one of many concurrent bookings of the same slot succeed', async () => {
      const [doctor] = await doctorsOf(ctx.clinic.careId);
      const slot = validBooking({ doctor_id: doctor, appointment_date: '2026-11-26', appointment_time: '15:00' });
      const statuses = await Promise.all(Array.from({ length: 20 }, () => book(slot).then((r) => r.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    });

    it('frees the slot again once the earlier appointment is Cancelled', async () => {
      const [doctor] = await doctorsOf(ctx.clinic.careId);
      const slot = validBooking({ doctor_id: doctor, appointment_date: '2026-11-27', appointment_time: '10:00' });
      const first = BookAppointmentResponse.parse(await (await book(slot)).json());
      await ctx.server.db.updateTable('appointments').set({ status: 'Cancelled' }).where('appointment_id', '=', first.data.appointment_id).execute();
      expect((await book(slot)).status).toBe(200);
    });
  });

  describe('with an Idempotency-Key', () => {
    const countAppointments = async () =>
      Number((await ctx.server.db.selectFrom('appointments').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    it('replays the first answer for the same key and body and creates nothing more', async () => {
      const body = validBooking({ appointment_date: '2026-11-30', appointment_time: '09:00' });
      const first = await book(body, { 'idempotency-key': 'retry-1' });
      const before = await countAppointments();
      const second = await book(body, { 'idempotency-key': 'retry-1' });

      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await second.json()).toEqual(await first.json());
      expect(await countAppointments()).toBe(before);
    });

    it('treats the same fields in another order as the same body', async () => {
      const body = validBooking({ appointment_date: '2026-11-30', appointment_time: '09:30' });
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const first = await (await book(body, { 'idempotency-key': 'retry-2' })).json();
      expect(await (await book(reordered, { 'idempotency-key': 'retry-2' })).json()).toEqual(first);
    });

    it('answers 422 for the same key with a different body', async () => {
      const body = validBooking({ appointment_date: '2026-11-30', appointment_time: '10:00' });
      expect((await book(body, { 'idempotency-key': 'retry-3' })).status).toBe(200);
      await expectError(
        await book({ ...body, appointment_time: '10:30' }, { 'idempotency-key': 'retry-3' }),
        422,
        'idempotency_key_reused',
      );
    });

    it('forgets a key after 24 hours', async () => {
      // A server on a clock of its own: a day on, the tokens the other tests book with would be gone.
      const ownClock = new FakeClock(TEST_NOW);
      const server = await startTestServer({ clock: ownClock });
      try {
        const clinic = await seedClinic(server);
        const body = validBooking({ appointment_date: '2026-12-01', appointment_time: '10:00' });
        const first = BookAppointmentResponse.parse(await (await (await authenticatedCaller(server, clinic)).post('/appointments/book', body, { 'idempotency-key': 'retry-4' })).json());
        ownClock.advance(24 * 3600_000 + 1000);
        const fresh = await authenticatedCaller(server, clinic); // the old token expired with the day
        const later = await fresh.post('/appointments/book', body, { 'idempotency-key': 'retry-4' });
        const second = BookAppointmentResponse.parse(await later.json());
        expect(second.data.appointment_id).not.toBe(first.data.appointment_id);
      } finally {
        await server.close();
        removeDb(server.dbPath);
      }
    });

    it('keys are per clinic: another clinic may use the same key', async () => {
      const other = await authenticatedCaller(ctx.server, ctx.otherClinic);
      const body = validBooking({ appointment_date: '2026-12-02', appointment_time: '10:00' });
      expect((await book(body, { 'idempotency-key': 'shared-key' })).status).toBe(200);
      const res = await other.post('/appointments/book', body, { 'idempotency-key': 'shared-key' });
      expect(res.status).toBe(200);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
    });

    it('answers 400 for an Idempotency-Key over 255 characters', async () => {
      await expectError(await book(validBooking(), { 'idempotency-key': 'k'.repeat(256) }), 400, 'validation_error', 'Idempotency-Key');
    });
  });
});
