import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeStore, type BookingRecord } from '../../../bff/changes/change-store.js';
import { clinicMessages } from '../../../bff/changes/clinic-messages.js';
import type { NotificationEvent } from '../../../bff/notifications/notification-event.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from '../sites/support/sites-test-database.js';
import { BOTH_CHANNELS, outboxRows } from './support/changes-stack.js';

/**
 * The booking records and change requests of the BFF's database
 * (bff/changes/change-store.ts), on a real SQLite file and on PostgreSQL:
 * each written with its outbox messages in one transaction, a second write
 * of the same thing writing nothing, messages included, however many race.
 */

const NOW = Date.parse('2026-11-23T09:00:00Z');
const FORGET_AT = Date.parse('2026-12-01T10:00:00Z');
/** A booking upstream made now, and one it replayed (an Idempotency-Key re-send). */
const NEW = { replayed: false };
const REPLAYED = { replayed: true };

const record = (appointmentId: number, changes: Partial<BookingRecord> = {}): BookingRecord => ({
  siteId: 'default',
  appointmentId,
  date: '2026-11-24',
  time: '10:00',
  doctorId: 2,
  treatmentId: 1,
  phone: '+44 7700 900123',
  forgetAt: FORGET_AT,
  ...changes,
});

const event = (type: NotificationEvent['type'], appointmentId: number): NotificationEvent => ({
  type,
  occurred_at: new Date(NOW).toISOString(),
  site_id: 'default',
  reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC',
  appointment_id: appointmentId,
  appointment: { date: '2026-11-24', time: '10:00', doctor_id: 2, dentist_name: 'Dr Raj Patel', treatment_id: 1, treatment_name: 'Check-up' },
  patient: { name: 'Jane Doe', phone: '+44 7700 900123' },
});

describe.each(ENGINES)('the change store on %s', (engine) => {
  let testDatabase: SitesTestDatabase;
  let database: SitesDatabase;
  let store: ChangeStore;

  beforeAll(async () => {
    testDatabase = await sitesTestDatabase(engine);
    database = await openSitesDatabase(testDatabase.url);
    store = new ChangeStore(database.db);
  });

  afterAll(async () => {
    await database.close();
    await testDatabase.remove();
  });

  const rowsAbout = async (appointmentId: number) => (await outboxRows(database)).filter((row) => row.event.appointment_id === appointmentId);

  it('records a booking with one message per channel, and reads it back', async () => {
    const recorded = await store.recordBooking(record(101), clinicMessages(BOTH_CHANNELS, event('booking.created', 101)), NOW, NEW);

    expect(recorded).toBe(true);
    expect(await store.readBooking('default', 101, NOW)).toEqual(record(101));
    expect((await rowsAbout(101)).map((row) => [row.channel, row.event_type, row.state])).toEqual(
      expect.arrayContaining([
        ['email', 'booking.created', 'pending'],
        ['webhook', 'booking.created', 'pending'],
      ]),
    );
    expect(await rowsAbout(101)).toHaveLength(2);
  });

  it('writes nothing for a replay recorded already: neither the record nor its messages', async () => {
    await store.recordBooking(record(102), clinicMessages(BOTH_CHANNELS, event('booking.created', 102)), NOW, NEW);

    const again = await store.recordBooking(record(102, { phone: '+44 20 7946 0000' }), clinicMessages(BOTH_CHANNELS, event('booking.created', 102)), NOW + 1000, REPLAYED);

    expect(again).toBe(false);
    expect((await store.readBooking('default', 102, NOW))?.phone).toBe('+44 7700 900123');
    expect(await rowsAbout(102)).toHaveLength(2);
  });

  it('takes a new booking of an id recorded already as new: upstream gave the id anew (its database was reset)', async () => {
    await store.recordBooking(record(117), clinicMessages(BOTH_CHANNELS, event('booking.created', 117)), NOW, NEW);
    await store.recordChangeRequest({ siteId: 'default', appointmentId: 117, kind: 'cancel', preferredStarts: [], forgetAt: FORGET_AT }, [], NOW);

    const again = await store.recordBooking(record(117, { phone: '+44 20 7946 0000' }), clinicMessages(BOTH_CHANNELS, event('booking.created', 117)), NOW + 1000, NEW);

    expect(again).toBe(true);
    expect((await store.readBooking('default', 117, NOW))?.phone).toBe('+44 20 7946 0000');
    // The earlier booking's request is not the new one's, and the clinic hears of the new booking.
    expect(await store.readChangeRequests('default', 117, NOW)).toEqual([]);
    expect((await rowsAbout(117)).filter((row) => row.event_type === 'booking.created')).toHaveLength(4);
  });

  it('records a booking without a message when every channel is off', async () => {
    await store.recordBooking(record(103, { doctorId: null, treatmentId: null, phone: null }), clinicMessages({}, event('booking.created', 103)), NOW, NEW);

    expect(await store.readBooking('default', 103, NOW)).toMatchObject({ doctorId: null, treatmentId: null, phone: null });
    expect(await rowsAbout(103)).toEqual([]);
  });

  it('keeps each site\'s bookings apart, and reads none past its forget_at', async () => {
    await store.recordBooking(record(104, { siteId: 'smile' }), [], NOW, NEW);

    expect(await store.readBooking('default', 104, NOW)).toBeUndefined();
    expect(await store.readBooking('smile', 104, FORGET_AT - 1)).toBeDefined();
    expect(await store.readBooking('smile', 104, FORGET_AT)).toBeUndefined();
  });

  it('takes the first change request of a kind, and answers a second with the first\'s time, writing nothing', async () => {
    const request = { siteId: 'default', appointmentId: 105, kind: 'cancel' as const, preferredStarts: [], forgetAt: FORGET_AT };

    const first = await store.recordChangeRequest(request, clinicMessages(BOTH_CHANNELS, event('booking.cancel_requested', 105)), NOW);
    const second = await store.recordChangeRequest(request, clinicMessages(BOTH_CHANNELS, event('booking.cancel_requested', 105)), NOW + 60_000);

    expect(first).toEqual({ requestedAt: NOW, alreadyRequested: false });
    expect(second).toEqual({ requestedAt: NOW, alreadyRequested: true });
    expect((await rowsAbout(105)).map((row) => row.channel).sort()).toEqual(['email', 'webhook']);
    expect(await store.readChangeRequests('default', 105, NOW)).toEqual([{ kind: 'cancel', requestedAt: NOW, preferredStarts: [] }]);
  });

  it('keeps a move\'s wished starts in order beside a cancel of the same booking', async () => {
    const starts = [
      { date: '2026-11-26', time: '10:00' },
      { date: '2026-11-25', time: '09:15' },
      { date: '2026-11-27', time: '16:45' },
    ];
    await store.recordChangeRequest({ siteId: 'default', appointmentId: 106, kind: 'cancel', preferredStarts: [], forgetAt: FORGET_AT }, [], NOW);
    await store.recordChangeRequest({ siteId: 'default', appointmentId: 106, kind: 'move', preferredStarts: starts, forgetAt: FORGET_AT }, [], NOW + 1);

    const requests = await store.readChangeRequests('default', 106, NOW);

    expect(requests.sort((a, b) => a.requestedAt - b.requestedAt)).toEqual([
      { kind: 'cancel', requestedAt: NOW, preferredStarts: [] },
      { kind: 'move', requestedAt: NOW + 1, preferredStarts: starts },
    ]);
    expect(await store.readChangeRequests('default', 106, FORGET_AT)).toEqual([]);
  });

  it('takes exactly one of ten requests of a kind sent at once, with one message per channel', async () => {
    const request = { siteId: 'default', appointmentId: 107, kind: 'cancel' as const, preferredStarts: [], forgetAt: FORGET_AT };

    const taken = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.recordChangeRequest(request, clinicMessages(BOTH_CHANNELS, event('booking.cancel_requested', 107)), NOW + index),
      ),
    );

    expect(taken.filter((one) => !one.alreadyRequested)).toHaveLength(1);
    const first = taken.find((one) => !one.alreadyRequested)!.requestedAt;
    expect(taken.every((one) => one.requestedAt === first)).toBe(true);
    expect((await rowsAbout(107)).map((row) => row.channel).sort()).toEqual(['email', 'webhook']);
  });

  it('leaves nothing behind when its transaction fails: the request, its messages, all or nothing', async () => {
    const messages = clinicMessages(BOTH_CHANNELS, event('booking.cancel_requested', 108));
    // The same message id twice: the second row breaks the outbox's primary key, after the request's row was written.
    const clash = [messages[0]!, { ...messages[1]!, id: messages[0]!.id }];

    await expect(
      store.recordChangeRequest({ siteId: 'default', appointmentId: 108, kind: 'cancel', preferredStarts: [], forgetAt: FORGET_AT }, clash, NOW),
    ).rejects.toThrow();

    expect(await store.readChangeRequests('default', 108, NOW)).toEqual([]);
    expect(await rowsAbout(108)).toEqual([]);
  });
});
