import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BffErrorBody } from '../../../contract/bff.js';
import { instantOf } from '../../../bff/availability/zoned-time.js';
import { FORGET_AFTER_VISIT_MS } from '../../../bff/booking/forget-after-visit.js';
import { appointmentIdOf, fixtureIds } from '../support/bff-harness.js';
import { eventually } from '../../support/eventually.js';
import { serviceAvailable } from '../../support/service-available.js';
import { book, messagesAbout, outboxRows, requestChange, startChangesStack, statusOf, type ChangesStack } from './support/changes-stack.js';

/**
 * What a booking leaves in the BFF's own database: its record (what a change
 * request needs to name: dentist, treatment, phone; until a week after the
 * visit) and one booking.created message per channel the site has on, both
 * written once, a replay writing nothing; and a booking still answered as
 * booked when that write fails.
 */

const recordOf = (stack: ChangesStack, appointmentId: number) =>
  stack.database.db.selectFrom('booking_records').selectAll().where('appointment_id', '=', appointmentId).executeTakeFirst();

describe('with both channels on', async () => {
  const stack = await startChangesStack();

  // 14:00, clear of the other tests' bookings ("any dentist" may give them dentists[0]), whatever their order.
  it('records the booking and queues booking.created once per channel, naming the dentist and the treatment', async () => {
    const { dentists, treatmentLasting } = await fixtureIds(stack.bff);
    const { data } = await book(stack, { patient_name: 'Record Rita', patient_phone: '020 7946 0222', appointment_time: '14:00', doctor_id: dentists[0], treatment_id: treatmentLasting(90) });
    const id = appointmentIdOf(stack.bff, data.reference);

    const record = await recordOf(stack, id);
    const told = await messagesAbout(stack.database, 'booking.created', id);

    expect(record).toEqual({
      site_id: 'default',
      appointment_id: id,
      date: '2026-11-24',
      time: '14:00',
      doctor_id: dentists[0],
      treatment_id: treatmentLasting(90),
      patient_phone: '020 7946 0222',
      forget_at: instantOf('2026-11-24', '14:00', 'Europe/London') + FORGET_AFTER_VISIT_MS,
    });
    expect(told.map((row) => row.channel).sort()).toEqual(['email', 'webhook']);
    expect(told[0]?.event).toEqual({
      type: 'booking.created',
      occurred_at: '2026-11-23T09:00:00.000Z',
      site_id: 'default',
      reference: data.reference,
      appointment_id: id,
      appointment: { date: '2026-11-24', time: '14:00', doctor_id: dentists[0], dentist_name: 'Dr Ann Smith', treatment_id: treatmentLasting(90), treatment_name: 'Whitening' },
      patient: { name: 'Record Rita', phone: '020 7946 0222' },
    });
  });

  it('records the dentist "any dentist" chose', async () => {
    const { data } = await book(stack, { appointment_time: '11:00' });
    const id = appointmentIdOf(stack.bff, data.reference);

    const [message] = await messagesAbout(stack.database, 'booking.created', id);

    expect(data.doctor_id).not.toBeNull();
    expect((await recordOf(stack, id))?.doctor_id).toBe(data.doctor_id);
    expect(message?.event.appointment).toMatchObject({ doctor_id: data.doctor_id, dentist_name: expect.stringMatching(/^Dr /), treatment_id: null, treatment_name: null });
  });

  it('writes nothing for a replay under the same Idempotency-Key', async () => {
    const key = { 'idempotency-key': 'records-replay-1' };
    const first = await book(stack, { appointment_time: '09:30' }, key);
    const id = appointmentIdOf(stack.bff, first.data.reference);
    const before = await outboxRows(stack.database);

    const res = await fetch(`${stack.bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...key },
      body: JSON.stringify({ patient_name: 'Jane Doe', patient_phone: '+44 7700 900123', appointment_date: '2026-11-24', appointment_time: '09:30' }),
    });

    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(await outboxRows(stack.database)).toEqual(before);
    expect(await messagesAbout(stack.database, 'booking.created', id)).toHaveLength(2);
  });

  it('lets a later change request name what the status view cannot: phone, dentist, treatment', async () => {
    const { treatmentLasting } = await fixtureIds(stack.bff);
    const { data } = await book(stack, { patient_phone: '020 7946 0333', appointment_time: '10:00', treatment_id: treatmentLasting(30) });
    const id = appointmentIdOf(stack.bff, data.reference);

    await requestChange(stack.bff.api, { reference: data.reference, kind: 'cancel' });

    const [message] = await messagesAbout(stack.database, 'booking.cancel_requested', id);
    expect(message?.event).toMatchObject({ patient: { name: 'Jane Doe', phone: '020 7946 0333' }, appointment: { treatment_name: 'Check-up', doctor_id: data.doctor_id } });
  });

  it('leaves booking_page_url out of the answer of a site without one', async () => {
    const { data } = await book(stack, { appointment_time: '12:00' });

    expect(data).not.toHaveProperty('booking_page_url');
  });
});

describe('with every channel off', async () => {
  const stack = await startChangesStack({ notifications: { email: undefined, webhook: undefined } });

  it('records the booking and queues no message', async () => {
    const { data } = await book(stack, { appointment_time: '09:00' });

    expect(await recordOf(stack, appointmentIdOf(stack.bff, data.reference))).toBeDefined();
    expect(await outboxRows(stack.database)).toEqual([]);
  });
});

describe('with a booking page', async () => {
  const stack = await startChangesStack({ notifications: { bookingPageUrl: 'https://test-dental.example/book' } });

  it("puts the page in the booking's answer and in the status view's changes", async () => {
    const { data } = await book(stack, { appointment_time: '09:00' });

    expect(data.booking_page_url).toBe('https://test-dental.example/book');
    expect((await statusOf(stack, data.reference)).changes?.booking_page_url).toBe('https://test-dental.example/book');
  });
});

describe('when the database fails', async () => {
  const stack = await startChangesStack();
  // Tables gone under a running BFF: every write and read of them fails, as on a lost database.
  await sql`drop table booking_records`.execute(stack.database.db);
  await sql`drop table change_requests`.execute(stack.database.db);

  it('still answers the booking 200 (it is booked), and logs an error without patient data', async () => {
    const { data } = await book(stack, { patient_name: 'Failing Fiona', patient_phone: '020 7946 0444', appointment_time: '09:00' });

    const errors = stack.bff.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(errors.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('booking not recorded: the clinic is not told of it by this BFF');
    expect(await outboxRows(stack.database)).toEqual([]);
    const logs = stack.bff.logs.join('\n');
    for (const secret of ['Failing Fiona', '020 7946 0444', data.reference]) expect(logs).not.toContain(secret);
  });

  it('answers a change request 503 database_unavailable, and the status view without changes', async () => {
    const { data } = await book(stack, { appointment_time: '09:15' });

    const res = await requestChange(stack.bff.api, { reference: data.reference, kind: 'cancel' });
    const view = await statusOf(stack, data.reference);

    expect(res.status).toBe(503);
    expect(BffErrorBody.parse(await res.json()).error_code).toBe('database_unavailable');
    expect(view.status).toBe('Scheduled');
    expect(view.changes).toBeUndefined();
  });
});

describe.runIf(serviceAvailable('postgres'))('when the database (PostgreSQL) stops answering', async () => {
  const stack = await startChangesStack({ engine: 'postgres' });
  const testDatabase = stack.testDatabase;

  it('answers the booking 200 after DATABASE_WAIT_MS, and the write lands once the database answers again', async () => {
    // Another session holds booking_records locked: the BFF's insert waits behind it.
    const locker = new pg.Client({ connectionString: testDatabase.url });
    await locker.connect();
    onTestFinished(() => locker.end());
    await locker.query('begin');
    await locker.query('lock table booking_records in access exclusive mode');

    const { data } = await book(stack, { appointment_time: '09:00' });
    const id = appointmentIdOf(stack.bff, data.reference);

    const errors = stack.bff.logs.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { type: string } }).filter((line) => line.level >= 50);
    expect(errors).toContainEqual(expect.objectContaining({ msg: 'booking not recorded: the clinic is not told of it by this BFF', err: { type: 'DatabaseTooSlow' } }));
    await locker.query('commit');
    await eventually(async () => expect(await messagesAbout(stack.database, 'booking.created', id)).toHaveLength(2));
    expect(Number((await recordOf(stack, id))?.appointment_id)).toBe(id);
  });
});
