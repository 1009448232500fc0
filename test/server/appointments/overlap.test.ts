import { beforeAll, describe, expect, it } from 'vitest';
import { BookAppointmentResponse } from '../../../contract/index.js';
import { AppointmentStore } from '../../../server/appointments/appointment.store.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { overlappingPairs } from '../support/overlaps.js';
import { authenticatedCaller, seedClinic, validBooking, type Caller } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { expectError } from '../../support/expect-error.js';

/**
 * An appointment holds its dentist from its start for its treatment's
 * duration_minutes, or without a treatment the clinic's default length
 * (30 minutes unless set): a booking that overlaps a Scheduled one of the same
 * dentist is 409 slot_unavailable. TEST_NOW is Monday 23 November 2026, 09:00
 * in London; each test books a weekday of its own.
 */
const clock = new FakeClock(TEST_NOW);

/** The fixture clinic (Check-up 30 minutes, Whitening 90) with an hour-long treatment too. */
const withHourTreatment = () => {
  const file = clinicFixture('Overlap Dental');
  file.treatments.push({ treatment_name: 'Implant consultation', description: 'An hour', base_fee: '120.00', duration_minutes: 60, image_url: '' });
  return file;
};

const ctx = useTestServer({
  clock,
  setup: async (server) => {
    const clinic = await seedClinic(server, withHourTreatment());
    const longDefault = await seedClinic(server, { ...clinicFixture('Long Default Dental'), booking_rules: { default_duration_minutes: 45 } });
    const ids = async (careId: number, table: 'treatments' | 'dentists') => {
      const column = table === 'treatments' ? 'treatment_id' : 'doctor_id';
      const rows = await server.db.selectFrom(table).select(column).where('care_id', '=', careId).orderBy(column).execute();
      return (rows as Record<string, number>[]).map((row) => row[column]!);
    };
    const [checkUp, whitening, , hour] = await ids(clinic.careId, 'treatments');
    return {
      caller: await authenticatedCaller(server, clinic),
      dentists: await ids(clinic.careId, 'dentists'),
      treatments: { checkUp: checkUp!, whitening: whitening!, hour: hour! },
      longDefault: { caller: await authenticatedCaller(server, longDefault), dentists: await ids(longDefault.careId, 'dentists') },
    };
  },
});

/** Books with the first dentist on `date` at `time`, with the treatment named (none unless given). */
async function book(date: string, time: string, treatment?: keyof typeof ctx.treatments, extra: Record<string, unknown> = {}, caller: Caller = ctx.caller) {
  const treatment_id = treatment === undefined ? undefined : ctx.treatments[treatment];
  return caller.post('/appointments/book', validBooking({ doctor_id: ctx.dentists[0], appointment_date: date, appointment_time: time, treatment_id, ...extra }));
}

async function booked(res: Response): Promise<number> {
  expect(res.status).toBe(200);
  return BookAppointmentResponse.parse(await res.json()).data.appointment_id;
}

describe('POST /appointments/book with a dentist who has a Scheduled 10:00-11:00 appointment', () => {
  // Tuesday 24 November: the hour-long treatment at 10:00; nothing else is booked with this dentist that day.
  const day = '2026-11-24';
  beforeAll(async () => {
    await booked(await book(day, '10:00', 'hour'));
  });

  it.each([
    ['starts inside it', '10:30', 'checkUp'],
    ['ends inside it', '09:30', 'hour'],
    ['contains it', '09:45', 'whitening'],
    ['is contained in it', '10:15', 'checkUp'],
    ['starts at the same time', '10:00', 'checkUp'],
    ['ends with it', '10:30', 'checkUp'],
  ] as const)('answers 409 slot_unavailable, naming the appointment in the way, for a booking that %s', async (_shape, time, treatment) => {
    const { message } = await expectError(await book(day, time, treatment), 409, 'slot_unavailable');

    expect(message).toBe('This dentist is already booked from 10:00 to 11:00 that day; choose another time');
  });

  it('takes a booking of another dentist, and one without a dentist, at the same time', async () => {
    await booked(await book(day, '10:30', 'checkUp', { doctor_id: ctx.dentists[1] }));
    await booked(await book(day, '10:30', 'checkUp', { doctor_id: null }));
  });
});

describe('POST /appointments/book around appointments that end', () => {
  it('takes appointments back to back: 10:00-11:00, then 11:00, then one ending at 10:00', async () => {
    const day = '2026-11-25';
    await booked(await book(day, '10:00', 'hour'));

    await booked(await book(day, '11:00', 'hour'));
    await booked(await book(day, '09:30', 'checkUp'));
  });

  it('stores when each appointment ends: its treatment\'s length, or the clinic\'s default without one', async () => {
    const day = '2026-11-26';
    const withTreatment = await booked(await book(day, '09:00', 'whitening'));
    const without = await booked(await book(day, '13:00'));

    const ends = await ctx.server.db.selectFrom('appointments').select(['appointment_id', 'end_time']).where('appointment_id', 'in', [withTreatment, without]).orderBy('appointment_id').execute();

    expect(ends).toEqual([
      { appointment_id: withTreatment, end_time: '10:30' },
      { appointment_id: without, end_time: '13:30' },
    ]);
  });

  it.each(['Cancelled', 'Completed'] as const)('frees the time of an appointment set %s', async (status) => {
    const day = status === 'Cancelled' ? '2026-11-27' : '2026-11-30';
    const first = await booked(await book(day, '10:00', 'hour'));
    await expectError(await book(day, '10:30', 'checkUp'), 409, 'slot_unavailable');

    expect(await new AppointmentStore(ctx.server.db, ctx.server.database.engine).setStatus(first, status)).toBe(true);

    await booked(await book(day, '10:30', 'checkUp'));
  });
});

describe('POST /appointments/book without a treatment', () => {
  it('holds the dentist for the clinic\'s default 30 minutes: 10:00 blocks 10:15, not 10:30', async () => {
    const day = '2026-12-01';
    await booked(await book(day, '10:00'));

    expect((await expectError(await book(day, '10:15'), 409, 'slot_unavailable')).message).toContain('from 10:00 to 10:30');
    await booked(await book(day, '10:30'));
  });

  it('holds the dentist for the length a clinic set: 45 minutes, 10:00 blocks 10:30, not 10:45', async () => {
    const day = '2026-12-01';
    const [dentist] = ctx.longDefault.dentists;
    await booked(await book(day, '10:00', undefined, { doctor_id: dentist }, ctx.longDefault.caller));

    const refused = await book(day, '10:30', undefined, { doctor_id: dentist }, ctx.longDefault.caller);
    expect((await expectError(refused, 409, 'slot_unavailable')).message).toContain('from 10:00 to 10:45');
    await booked(await book(day, '10:45', undefined, { doctor_id: dentist }, ctx.longDefault.caller));
  });

  it('takes any HH:MM start and counts from it: 10:07 blocks 10:36, not 10:37', async () => {
    const day = '2026-12-02';
    await booked(await book(day, '10:07'));

    await expectError(await book(day, '10:36'), 409, 'slot_unavailable');
    await booked(await book(day, '10:37'));
  });

  it('holds nobody\'s time without a dentist: overlapping bookings without one are all taken', async () => {
    const day = '2026-12-02';

    for (const time of ['15:00', '15:10', '15:00']) await booked(await book(day, time, 'hour', { doctor_id: null }));
  });
});

describe('POST /appointments/book, many at once', () => {
  // 20 together land in one shared transaction (group commit), whose later bookings must see its earlier ones.
  it('lets exactly one of 20 concurrent overlapping bookings of one dentist succeed, and leaves no overlap', async () => {
    const day = '2026-12-03';
    const times = ['10:00', '10:15', '10:30', '10:45'];

    const statuses = await Promise.all(Array.from({ length: 20 }, (_, index) => book(day, times[index % 4]!, 'hour').then((res) => res.status)));

    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(await overlappingPairs(ctx.server.db)).toEqual([]);
  });
});
