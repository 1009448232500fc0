import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppointmentStatusResponse } from '../../../contract/index.js';
import { createLogger } from '../../../platform/logger.js';
import { RETENTION_BATCH } from '../../../server/appointments/patient-data.store.js';
import { purgeExpired, scheduleRetention } from '../../../server/appointments/retention.js';
import { clinicCli } from '../support/clinic-cli.js';
import { startServerProcess } from '../support/server-process.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { daysBefore, insertAppointment, sqliteFileHolds } from '../support/patient-files.js';
import { TEST_ENGINE } from '../support/test-database.js';
import { authenticatedCaller, collectLogLines, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

const dbPath = join(mkdtempSync(join(tmpdir(), 'clinic-retention-test-')), 'clinic.db');
const clock = new FakeClock(TEST_NOW);
const ctx = useTestServer({
  clock,
  ...(TEST_ENGINE === 'sqlite' ? { dbPath } : {}),
  setup: async (server) => {
    const clinic = await seedClinic(server);
    return { clinic, caller: await authenticatedCaller(server, clinic) };
  },
});

const patient = { patient_name: 'Ottoline Quarrendon', patient_phone: '+44 7700 900555', address: '12 Larkspur Mews', note: 'allergic to penicillin' };

/** `clinic appointments purge` at a retention of 365 days, by the system clock as the CLI reads it. */
const purge = () => clinicCli(ctx.server.databaseUrl, ['appointments', 'purge'], { RETENTION_DAYS: '365' });

const rowOf = (id: number) => ctx.server.db.selectFrom('appointments').selectAll().where('appointment_id', '=', id).executeTakeFirstOrThrow();

describe('clinic appointments purge', () => {
  it('erases the patient data of appointments past RETENTION_DAYS, keeps the rest, and prints only how many', async () => {
    // The CLI reads the system clock: dates relative to the real today.
    const today = new Date();
    const old = await insertAppointment(ctx.server, ctx.clinic.careId, { ...patient, appointment_date: daysBefore(today, 400), doctor_id: 1, treatment_id: 2 });
    const kept = await insertAppointment(ctx.server, ctx.clinic.careId, { patient_name: 'Rosalind Keptwell', appointment_date: daysBefore(today, 300) });
    if (TEST_ENGINE === 'sqlite') expect(sqliteFileHolds(dbPath, patient.patient_name)).toBe(true);

    const result = await clinicCli(ctx.server.databaseUrl, ['appointments', 'purge'], { RETENTION_DAYS: '365' });

    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ anonymised: 1, before: daysBefore(today, 365) });
    for (const value of Object.values(patient)) expect(result.stdout + result.stderr).not.toContain(value);
    expect(await rowOf(old)).toMatchObject({
      patient_name: '',
      patient_phone: '',
      address: null,
      note: null,
      appointment_date: daysBefore(today, 400),
      appointment_time: '10:00',
      doctor_id: 1,
      treatment_id: 2,
      status: 'Completed',
    });
    expect(await rowOf(kept)).toMatchObject({ patient_name: 'Rosalind Keptwell', patient_phone: '+44 7700 900123' });
  });

  it.runIf(TEST_ENGINE === 'sqlite')('leaves none of the erased values in the SQLite file or its WAL', async () => {
    await insertAppointment(ctx.server, ctx.clinic.careId, { ...patient, appointment_date: daysBefore(new Date(), 400) });
    await insertAppointment(ctx.server, ctx.clinic.careId, { patient_name: 'Rosalind Keptwell', appointment_date: daysBefore(new Date(), 300) });

    expect((await purge()).code).toBe(0);

    for (const value of Object.values(patient)) expect(sqliteFileHolds(dbPath, value), value).toBe(false);
    expect(sqliteFileHolds(dbPath, 'Rosalind Keptwell')).toBe(true);
  });

  it('leaves the status lookup answering, with an empty name', async () => {
    const old = await insertAppointment(ctx.server, ctx.clinic.careId, { ...patient, appointment_date: daysBefore(new Date(), 400) });
    expect((await purge()).code).toBe(0);

    const res = await ctx.caller.get(`/appointments/status/${old}`);

    expect(res.status).toBe(200);
    expect(AppointmentStatusResponse.parse(await res.json()).data).toMatchObject({ name: '', status: 'Completed' });
  });

  it('counts nothing twice: a second purge prints 0', async () => {
    await insertAppointment(ctx.server, ctx.clinic.careId, { ...patient, appointment_date: daysBefore(new Date(), 400) });
    expect(JSON.parse((await purge()).stdout)).toMatchObject({ anonymised: expect.any(Number) });

    const result = await purge();

    expect(JSON.parse(result.stdout)).toMatchObject({ anonymised: 0 });
  });

  it('refuses with one line and exit code 2 when RETENTION_DAYS is 0 (retention off)', async () => {
    const result = await clinicCli(ctx.server.databaseUrl, ['appointments', 'purge'], { RETENTION_DAYS: '0' });

    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining('RETENTION_DAYS is 0')]);
  });
});

describe('the Idempotency-Key records', () => {
  it('hold no patient data: the answer names only the appointment, the request only as a SHA-256', async () => {
    const res = await ctx.caller.post('/appointments/book', validBooking({ patient_name: 'Hermione Keyholder', appointment_time: '11:00' }), {
      'idempotency-key': 'retention-check-1',
    });
    expect(res.status).toBe(200);

    const row = await ctx.server.db.selectFrom('idempotency_keys').selectAll().where('idempotency_key', '=', 'retention-check-1').executeTakeFirstOrThrow();

    expect(JSON.stringify(row)).not.toContain('Hermione');
    expect(JSON.stringify(row)).not.toContain('7700');
  });
});

describe('the retention schedule in the server', () => {
  afterEach(() => vi.useRealTimers());
  const database = () => ({ kysely: ctx.server.db, engine: ctx.server.database.engine });

  it('purges at start, then again each day, by the injected clock, and logs counts but no patient data', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    // A clock of its own to move a day on: the server's tokens live by the file's clock.
    const clock = new FakeClock(TEST_NOW);
    const first = await insertAppointment(ctx.server, ctx.clinic.careId, { patient_name: 'Wilhelmina Startup', appointment_date: daysBefore(clock.now(), 366) });
    // 365 days past on the fake clock's day: kept today, one day too old tomorrow.
    const second = await insertAppointment(ctx.server, ctx.clinic.careId, { patient_name: 'Bartholomew Nextday', appointment_date: daysBefore(clock.now(), 365) });
    const { lines, sink } = collectLogLines();

    const schedule = scheduleRetention({ database: database(), clock, retentionDays: 365, logger: createLogger('info', sink) });
    await schedule.stop();
    const afterStart = [(await rowOf(first)).patient_name, (await rowOf(second)).patient_name];

    const daily = scheduleRetention({ database: database(), clock, retentionDays: 365, logger: createLogger('info', sink) });
    clock.advance(86_400_000);
    vi.advanceTimersByTime(86_400_000);
    await daily.stop();

    expect(afterStart).toEqual(['', 'Bartholomew Nextday']);
    expect((await rowOf(second)).patient_name).toBe('');
    expect(lines.map((line) => JSON.parse(line) as { anonymised?: number }).map((line) => line.anonymised)).toEqual([1, 0, 1]);
    expect(lines.join('\n')).not.toMatch(/Wilhelmina|Bartholomew|7700/);
  });

  it('anonymises more appointments than one batch holds, counting each once', async () => {
    const old = Array.from({ length: RETENTION_BATCH + 3 }, (_, i) => ({
      care_id: ctx.clinic.careId,
      patient_name: `Batch Patient ${i}`,
      patient_phone: '+44 7700 900999',
      appointment_date: daysBefore(clock.now(), 700),
      appointment_time: '09:00',
      end_time: '09:30',
      status: 'Completed' as const,
      created_at: 0,
    }));
    await ctx.server.db.insertInto('appointments').values(old).execute();

    const result = await purgeExpired(database(), clock.now(), 365);

    expect(result.anonymised).toBe(RETENTION_BATCH + 3);
    const left = await ctx.server.db.selectFrom('appointments').select('appointment_id').where('patient_name', 'like', 'Batch Patient%').execute();
    expect(left).toEqual([]);
  });

  it('does nothing with RETENTION_DAYS 0', async () => {
    const id = await insertAppointment(ctx.server, ctx.clinic.careId, { patient_name: 'Forever Kept', appointment_date: '2001-01-01' });
    try {
      await scheduleRetention({ database: database(), clock, retentionDays: 0, logger: createLogger('info', collectLogLines().sink) }).stop();

      expect((await rowOf(id)).patient_name).toBe('Forever Kept');
    } finally {
      // Long past and still named: every later purge in this file would count it.
      await ctx.server.db.deleteFrom('appointments').where('appointment_id', '=', id).execute();
    }
  });
});

describe('the server process', () => {
  it('purges at start, logging the count, and still stops cleanly on SIGTERM', async () => {
    const id = await insertAppointment(ctx.server, ctx.clinic.careId, { patient_name: 'Processa Oldbooking', appointment_date: daysBefore(new Date(), 500) });

    const server = await startServerProcess({ DATABASE_URL: ctx.server.databaseUrl, RETENTION_DAYS: '365' });
    try {
      // The purge at start runs beside the listening: wait for its line rather than a time.
      while (!server.output().includes('retention:')) await new Promise((resolve) => server.child.stdout!.once('data', resolve));
    } finally {
      server.child.kill('SIGTERM');
    }
    const exit = await server.exited;

    expect(exit.code).toBe(0);
    expect((await rowOf(id)).patient_name).toBe('');
    expect(server.output()).toMatch(/"anonymised":[1-9]/);
    expect(server.output()).not.toContain('Processa');
  });
});
