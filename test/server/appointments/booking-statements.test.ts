import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { BookAppointmentRequest, type BookAppointmentResponse } from '../../../contract/index.js';
import { BookingService } from '../../../server/appointments/booking.service.js';
import { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { ClinicStore } from '../../../server/clinics/clinic.store.js';
import type { Database, Db } from '../../../server/db/database.js';
import { GroupCommitter } from '../../../server/db/group-commit.js';
import { PrecompiledQueries } from '../../../server/db/performance/precompiled-queries.js';
import { ImmediateSqliteDialect } from '../../../server/db/sqlite-immediate-dialect.js';
import { Stores } from '../../../server/stores.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { createTestDatabase, openTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.js';
import { validBooking } from '../support/test-server.js';

/** Connections of the logged PostgreSQL pool: group commit runs half as many transactions at once. */
const POOL_SIZE = 4;

/**
 * What a booking sends to the database, counted: on PostgreSQL each statement
 * is a round trip, the main cost of a booking (docs/performance.md). Bookings
 * that arrive together share a group commit's transaction, and with it one
 * read of the clinic (its time zone, rules and website settings).
 */
describe(`the statements of bookings that share a transaction (${TEST_ENGINE})`, () => {
  let database: TestDatabase | undefined;
  let logged: Db | undefined;
  afterEach(async () => {
    await logged?.destroy();
    await database?.remove();
  });

  /** A booking service on a logged Kysely, as the server has one, for a clinic of the fixture; the statements it sends are kept. */
  async function loggedBookings() {
    database = await createTestDatabase();
    const clock = new FakeClock(TEST_NOW);
    const migrated = await openTestDatabase(database.url);
    const careId = await new ClinicStore(migrated.kysely).create(ClinicFile.parse(clinicFixture()), clock.now());
    const [treatment] = await migrated.kysely.selectFrom('treatments').select('treatment_id').where('care_id', '=', careId).orderBy('treatment_id').execute();
    const [dentist] = await migrated.kysely.selectFrom('dentists').select('doctor_id').where('care_id', '=', careId).orderBy('doctor_id').execute();
    await migrated.kysely.destroy();

    const statements: string[] = [];
    const dialect =
      database.engine === 'postgres'
        ? new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: POOL_SIZE }) })
        : new ImmediateSqliteDialect({ database: new SQLite(database.location) });
    logged = new Kysely({ dialect, log: (event) => void statements.push(event.query.sql) }) as unknown as Db;
    const opened: Database = {
      kysely: logged,
      engine: database.engine,
      connections: database.engine === 'postgres' ? POOL_SIZE : 1,
      precompiled: new PrecompiledQueries(),
    };
    const bookings = new BookingService(Stores.of(opened), new GroupCommitter(opened), clock);
    const book = (overrides: Record<string, unknown>) => bookings.book(careId, BookAppointmentRequest.parse(validBooking(overrides)), undefined);
    return { book, statements, treatmentId: treatment!.treatment_id, doctorId: dentist!.doctor_id };
  }

  const outcome = ({ status, body }: { status: number; body: unknown }) => [status, (body as BookAppointmentResponse).success];

  it('reads the clinic once for all of them, and inserts each appointment', async () => {
    const { book, statements } = await loggedBookings();

    // Asked for in one turn of the event loop, so one group commit takes all three.
    const answers = await Promise.all(['10:00', '11:00', '12:00'].map((time) => book({ appointment_time: time })));

    expect(answers.map(outcome)).toEqual([
      [200, true],
      [200, true],
      [200, true],
    ]);
    expect(statements.filter((text) => /from "clinics"/.test(text))).toHaveLength(1);
    expect(statements.filter((text) => /^insert into "appointments"/.test(text))).toHaveLength(3);
  });

  it("reads a booking's treatment and dentist in one query", async () => {
    const { book, statements, treatmentId, doctorId } = await loggedBookings();

    expect(outcome(await book({ treatment_id: treatmentId, doctor_id: doctorId }))).toEqual([200, true]);

    const named = statements.filter((text) => /from "(treatments|dentists)"/.test(text));
    expect(named).toHaveLength(1);
    expect(named[0]).toMatch(/from "treatments".*from "dentists"/s);
  });
});
