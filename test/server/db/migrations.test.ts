import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BookAppointmentResponse } from '../../../contract/index.js';
import { AuthService } from '../../../server/auth/auth.service.js';
import { KeyStore } from '../../../server/auth/key.store.js';
import { TokenStore } from '../../../server/auth/token.store.js';
import { initial } from '../../../server/db/migrations/001-initial.js';
import { openPostgres } from '../../../server/db/postgres.js';
import type { AppointmentsTable, ClinicsTable, Tables } from '../../../server/db/schema.js';
import { openSqlite, sqlitePathFromUrl } from '../../../server/db/sqlite.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { entryPointArgs } from '../../support/entry-point.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { REPO_ROOT } from '../support/server-process.js';
import { createTestDatabase, openTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.js';
import { authenticatedCaller, startTestServer, validBooking } from '../support/test-server.js';

/** Opens the database in a process of its own, as a server or the CLI does at start-up; its error, if any. */
async function openInProcess(databaseUrl: string): Promise<string | undefined> {
  try {
    await promisify(execFile)(process.execPath, entryPointArgs('test/server/support/open-database-main.ts'), {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return undefined;
  } catch (error) {
    return (error as { stderr?: string }).stderr?.trim() || String(error);
  }
}

/** The tables as migration 001 made them, before 002 added the booking rules and end_time. */
interface DatabaseAt001 extends Omit<Tables, 'clinics' | 'appointments'> {
  clinics: Omit<ClinicsTable, 'min_notice_minutes' | 'horizon_days' | 'default_duration_minutes'>;
  appointments: Omit<AppointmentsTable, 'end_time'>;
}

/** The database brought to migration 001 only, as a server of that time left it. */
async function openAt001(database: TestDatabase): Promise<Kysely<DatabaseAt001>> {
  const db = (database.engine === 'postgres' ? openPostgres(database.url, { poolSize: 2 }) : openSqlite(sqlitePathFromUrl(database.url), { synchronous: 'FULL' }).db) as unknown as Kysely<DatabaseAt001>;
  const provider = { getMigrations: async () => ({ '001-initial': initial(database.engine) }) };
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error;
  return db;
}

describe(`migrations on ${TEST_ENGINE}`, () => {
  // Before migrations ran in a transaction on SQLite, about one start in three of two processes on a
  // new file failed ("table clinics already exists"). Three rounds of three processes.
  it('let several processes start at once on a new database: one migrates, the others wait and find it done', { timeout: 90_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const database = await createTestDatabase();
      try {
        const errors = await Promise.all([1, 2, 3].map(() => openInProcess(database.url)));
        expect(errors).toEqual([undefined, undefined, undefined]);

        const db = (await openTestDatabase(database.url)).kysely;
        const applied = await db.selectFrom('kysely_migration' as never).select('name' as never).execute();
        await db.destroy();
        expect(applied).toEqual([{ name: '001-initial' }, { name: '002-appointment-lengths' }]);
      } finally {
        await database.remove();
      }
    }
  });

  describe('002-appointment-lengths on a database with rows', () => {
    it('gives existing clinics the default booking rules, and each appointment the end its treatment or the default length makes', async () => {
      const database = await createTestDatabase();
      try {
        const old = await openAt001(database);
        const ids = await seedAt001(old);
        await old.destroy();

        const db = (await openTestDatabase(database.url)).kysely;
        const clinic = await db.selectFrom('clinics').select(['min_notice_minutes', 'horizon_days', 'default_duration_minutes']).executeTakeFirstOrThrow();
        const ends = await db.selectFrom('appointments').select(['patient_name', 'appointment_time', 'end_time']).orderBy('appointment_id').execute();
        await db.destroy();

        expect(clinic).toEqual({ min_notice_minutes: 120, horizon_days: 365, default_duration_minutes: 30 });
        expect(ends).toEqual([
          { patient_name: 'Hour treatment', appointment_time: '10:00', end_time: '11:00' },
          { patient_name: 'No treatment', appointment_time: '10:00', end_time: '10:30' },
          { patient_name: 'Short treatment', appointment_time: '09:15', end_time: '10:00' },
          { patient_name: 'Past midnight', appointment_time: '17:00', end_time: '24:00' },
          { patient_name: 'Cancelled, no treatment', appointment_time: '13:00', end_time: '13:30' },
        ]);
        expect(ids.appointments).toHaveLength(5);
      } finally {
        await database.remove();
      }
    });

    it('leaves the migrated appointments holding their dentist: a booking inside one is 409, one right after it is taken', async () => {
      const database = await createTestDatabase();
      try {
        const old = await openAt001(database);
        const { careId, doctorId } = await seedAt001(old);
        await old.destroy();
        const server = await startTestServer({ database, clock: new FakeClock(TEST_NOW) });
        try {
          const keys = await new AuthService(new KeyStore(server.db), new TokenStore(server.db), server.clock).createKeyPair(careId);
          const caller = await authenticatedCaller(server, { careId, appKey: keys.app_key, secret: keys.app_secret_key });
          const at = (time: string) => validBooking({ doctor_id: doctorId, appointment_date: '2026-11-24', appointment_time: time });

          const inside = await caller.post('/appointments/book', at('10:45'));
          const after = await caller.post('/appointments/book', at('11:00'));

          expect(inside.status).toBe(409);
          expect(((await inside.json()) as { message: string }).message).toContain('from 10:00 to 11:00');
          expect(after.status).toBe(200);
          BookAppointmentResponse.parse(await after.json());
        } finally {
          await server.close();
        }
      } finally {
        await database.remove();
      }
    });
  });
});

/**
 * A clinic as a server of migration 001 stored it, with a dentist, treatments
 * of 60, 45 and 600 minutes, and five appointments on Tuesday 24 November 2026.
 */
async function seedAt001(db: Kysely<DatabaseAt001>): Promise<{ careId: number; doctorId: number; appointments: number[] }> {
  const file = clinicFixture();
  const { care_id: careId } = await db
    .insertInto('clinics')
    .values({ ...file.organization, timezone: file.timezone, created_at: Date.parse(TEST_NOW) })
    .returning('care_id')
    .executeTakeFirstOrThrow();
  await db.insertInto('websites').values({ care_id: careId, settings_json: JSON.stringify(file.website), updated_at: Date.parse(TEST_NOW) }).execute();
  const treatment = async (name: string, duration_minutes: number) =>
    (
      await db
        .insertInto('treatments')
        .values({ care_id: careId, treatment_name: name, description: '', base_fee_cents: 1000, duration_minutes, image_url: '', active: 1 })
        .returning('treatment_id')
        .executeTakeFirstOrThrow()
    ).treatment_id;
  const hour = await treatment('Hour', 60);
  const short = await treatment('Short', 45);
  const long = await treatment('Long', 600);
  const { doctor_id: doctorId } = await db
    .insertInto('dentists')
    .values({ care_id: careId, doctor_name: 'Dr Old', specialization: '', qualification: '', experience_years: 1, consultation_fee_cents: 0, signature_image_url: '' })
    .returning('doctor_id')
    .executeTakeFirstOrThrow();
  const appointment = async (patient_name: string, appointment_time: string, treatment_id: number | null, status: 'Scheduled' | 'Cancelled' = 'Scheduled') =>
    (
      await db
        .insertInto('appointments')
        .values({
          care_id: careId,
          patient_name,
          patient_phone: '+44 7700 900123',
          address: null,
          appointment_date: '2026-11-24',
          appointment_time,
          doctor_id: treatment_id === hour ? doctorId : null,
          treatment_id,
          note: null,
          status,
          created_at: Date.parse(TEST_NOW),
        })
        .returning('appointment_id')
        .executeTakeFirstOrThrow()
    ).appointment_id;
  const appointments = [
    await appointment('Hour treatment', '10:00', hour),
    await appointment('No treatment', '10:00', null),
    await appointment('Short treatment', '09:15', short),
    await appointment('Past midnight', '17:00', long),
    await appointment('Cancelled, no treatment', '13:00', null, 'Cancelled'),
  ];
  return { careId, doctorId, appointments };
}
