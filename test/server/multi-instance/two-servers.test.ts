import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookAppointmentResponse } from '../../../contract/index.js';
import type { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { clinicCli } from '../support/clinic-cli.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { dentistSlots, nextWeekdayInLondon, weekdaysAfter } from '../support/future-slot.js';
import { overlappingPairs } from '../support/overlaps.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { appointmentIdsIn, authHeaders, seedDatabase, type SeededKeys } from '../support/seed-database.js';
import { createTestDatabase, openTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.js';
import { validBooking } from '../support/test-server.js';

/** The fixture clinic with an hour-long treatment as well (the last one). */
function withHourTreatment(): ClinicFile {
  const file = clinicFixture();
  file.treatments.push({ treatment_name: 'Implant consultation', description: 'An hour', base_fee: '120.00', duration_minutes: 60, image_url: '' });
  return file;
}

/**
 * Two real server processes on ONE database (a SQLite file, or a PostgreSQL
 * database: the engine of the run), as behind a load balancer. Whatever one
 * process knows in memory, the database decides every race: a dentist's time
 * (SQLite's single writer; a lock on the dentist's day on PostgreSQL), the
 * Idempotency-Key, the transactions.
 */
describe(`two server processes on one ${TEST_ENGINE} database`, { timeout: 60_000 }, () => {
  const date = nextWeekdayInLondon();
  let database: TestDatabase;
  let keys: SeededKeys;
  let servers: ServerProcess[] = [];
  let headers: Record<string, string>;

  const start = () => startServerProcess({ DATABASE_URL: database.url, API_RATE_LIMIT: '100000' });

  beforeAll(async () => {
    database = await createTestDatabase();
    keys = await seedDatabase(database.url, withHourTreatment());
    // Both at once (a second start on a migrated database); afterAll stops whichever started.
    const started = await Promise.allSettled([start(), start()]);
    servers = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
    // Tokens live in the database: one granted by the first process is good on the second.
    headers = await authHeaders(servers[0]!.api, keys);
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
      await server.exited;
    }
    await database?.remove();
  }, 60_000);

  interface Answer {
    status: number;
    body: string;
    replayed: string | null;
  }

  /** POSTs a booking to one of the processes. */
  async function book(server: ServerProcess, body: unknown, extra: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(`${server.api}/appointments/book`, {
      method: 'POST',
      headers: { ...headers, ...extra },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.text(), replayed: res.headers.get('idempotent-replayed') };
  }

  /** `n` requests fired together, alternating between the two processes. */
  const spread = (n: number, send: (server: ServerProcess, index: number) => Promise<Answer>) =>
    Promise.all(Array.from({ length: n }, (_, index) => send(servers[index % 2]!, index)));

  const count = (statuses: number[]) =>
    Object.fromEntries([...new Set(statuses)].sort().map((status) => [status, statuses.filter((s) => s === status).length]));

  it('lets exactly one of 50 concurrent bookings of one slot succeed: one 200, 49 × 409, no 500', async () => {
    const slot = validBooking({ appointment_date: date, appointment_time: '09:00', doctor_id: keys.doctorIds[0] });

    const answers = await spread(50, (server, index) => book(server, { ...slot, patient_name: `Racer ${index}` }));

    expect(count(answers.map((answer) => answer.status))).toEqual({ 200: 1, 409: 49 });
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, error_code: 'slot_unavailable' });
    }
    const db = (await openTestDatabase(database.url)).kysely;
    const scheduled = await db
      .selectFrom('appointments')
      .select('patient_name')
      .where('doctor_id', '=', keys.doctorIds[0]!)
      .where('appointment_date', '=', date)
      .where('appointment_time', '=', '09:00')
      .execute();
    await db.destroy();
    expect(scheduled).toHaveLength(1);
  });

  // Five races, each on a day of its own: one alone may happen not to interleave the two processes' transactions.
  it('lets exactly one of 50 concurrent overlapping bookings of one dentist succeed (an hour at 10:00, 10:15, 10:30 or 10:45): one 200, 49 × 409, no 500, no overlap', async () => {
    const hour = keys.treatmentIds.at(-1)!;
    const times = ['10:00', '10:15', '10:30', '10:45'];
    for (let race = 0; race < 5; race++) {
      const day = weekdaysAfter(date, 60 + race);

      const answers = await spread(50, (server, index) =>
        book(server, validBooking({ appointment_date: day, appointment_time: times[index % 4], doctor_id: keys.doctorIds[1], treatment_id: hour, patient_name: `Overlap ${index}` })),
      );

      expect(count(answers.map((answer) => answer.status)), day).toEqual({ 200: 1, 409: 49 });
      for (const answer of answers.filter((a) => a.status === 409)) {
        expect(JSON.parse(answer.body)).toMatchObject({ success: false, error_code: 'slot_unavailable' });
      }
    }
    const db = (await openTestDatabase(database.url)).kysely;
    const overlaps = await overlappingPairs(db);
    const perDay = await db
      .selectFrom('appointments')
      .select(['appointment_date', 'end_time'])
      .where('doctor_id', '=', keys.doctorIds[1]!)
      .where('appointment_time', 'in', times)
      .where('appointment_date', '>=', weekdaysAfter(date, 60))
      .orderBy('appointment_date')
      .execute();
    await db.destroy();
    expect(overlaps).toEqual([]);
    expect(perDay.map((row) => row.appointment_date)).toEqual([0, 1, 2, 3, 4].map((race) => weekdaysAfter(date, 60 + race)));
    for (const { end_time } of perDay) expect(end_time).toMatch(/^11:[0-4][05]$/);
  });

  it('creates one appointment for 20 concurrent requests with one Idempotency-Key, and answers them all alike', async () => {
    const booking = validBooking({ appointment_date: date, appointment_time: '09:30', patient_name: 'Idempotent Twin' });
    const key = { 'idempotency-key': `twin-${TEST_ENGINE}-${Date.now()}` };

    const answers = await spread(20, (server) => book(server, booking, key));

    expect(count(answers.map((answer) => answer.status))).toEqual({ 200: 20 });
    const first = BookAppointmentResponse.parse(JSON.parse(answers[0]!.body));
    for (const answer of answers) expect(JSON.parse(answer.body)).toEqual(first);
    expect(answers.filter((answer) => answer.replayed === 'true')).toHaveLength(19);
    const db = (await openTestDatabase(database.url)).kysely;
    const rows = await db.selectFrom('appointments').select('appointment_id').where('patient_name', '=', 'Idempotent Twin').execute();
    await db.destroy();
    expect(rows).toEqual([{ appointment_id: first.data.appointment_id }]);
  });

  it('lets the clinic settings area (the CLI) write while both serve bookings, with no 500 on either side', async () => {
    const burst = spread(60, (server, index) =>
      book(server, validBooking({ appointment_date: date, appointment_time: '10:00', patient_name: `Busy ${index}` })),
    );
    // In this process: a connection of its own beside the two server processes', as the CLI's would be.
    const cli = async (...args: string[]) => {
      const result = await clinicCli(database.url, args);
      expect(result.code, result.stderr).toBe(0);
      return result;
    };
    const [answers, created] = await Promise.all([burst, cli('keys', 'create', '--clinic', String(keys.careId))]);
    const cancelled = await cli('appointments', 'set-status', '--id', String(BookAppointmentResponse.parse(JSON.parse(answers[0]!.body)).data.appointment_id), '--status', 'Cancelled');

    expect(count(answers.map((answer) => answer.status))).toEqual({ 200: 60 });
    expect(JSON.parse(created.stdout)).toMatchObject({ app_key: expect.stringMatching(/^ck_/) });
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ status: 'Cancelled' });
  });

  // 16 clients over a process of this test's own and the first; SIGKILL to its own once 60 bookings are acknowledged,
  // so the other tests keep both of theirs. Each booking names a dentist, at a time no other booking holds, so every
  // one goes through the overlap check.
  it('loses no acknowledged booking when one of them is killed with SIGKILL in the middle of a burst', { timeout: 60_000 }, async () => {
    const victim = await start();
    servers.push(victim);
    const survivor = servers[0]!;
    const nextSlot = dentistSlots(keys.doctorIds, weekdaysAfter(date, 1));
    const acknowledged: number[] = [];
    const afterKill: number[] = [];
    let unanswered = 0;
    let killed = false;
    const client = async (n: number) => {
      const server = n % 2 === 0 ? victim : survivor;
      for (let round = 0; round < 40; round++) {
        const body = validBooking({ ...nextSlot(), patient_name: `Kill ${n}-${round}` });
        let answer: Answer;
        try {
          answer = await book(server, body);
        } catch (error) {
          if (!(killed && server === victim)) throw error;
          unanswered++; // the process died before answering: nothing was promised
          return;
        }
        expect(answer.status, answer.body).toBe(200);
        const id = BookAppointmentResponse.parse(JSON.parse(answer.body)).data.appointment_id;
        acknowledged.push(id);
        if (killed && server === survivor) afterKill.push(id);
        if (!killed && acknowledged.length >= 60) {
          killed = true;
          victim.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, n) => client(n)));
    expect((await victim.exited).signal).toBe('SIGKILL');

    expect(unanswered).toBeGreaterThan(0); // bookings were in flight on the killed process
    expect(afterKill.length).toBeGreaterThan(0); // the other went on booking
    const stored = await appointmentIdsIn(database.url);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    const db = (await openTestDatabase(database.url)).kysely;
    const overlaps = await overlappingPairs(db);
    await db.destroy();
    expect(overlaps).toEqual([]);
  });
});
