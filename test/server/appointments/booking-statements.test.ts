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

  it('reads the clinic once for all of them, and inserts each appointment', async () => {
    database = await createTestDatabase();
    const clock = new FakeClock(TEST_NOW);
    const migrated = await openTestDatabase(database.url);
    const careId = await new ClinicStore(migrated.kysely).create(ClinicFile.parse(clinicFixture()), clock.now());
    await migrated.kysely.destroy();

    const statements: string[] = [];
    const dialect =
      database.engine === 'postgres'
        ? new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: POOL_SIZE }) })
        : new ImmediateSqliteDialect({ database: new SQLite(database.location) });
    logged = new Kysely({ dialect, log: (event) => void statements.push(event.query.sql) }) as unknown as Db;
    const opened: Database = { kysely: logged, engine: database.engine, connections: database.engine === 'postgres' ? POOL_SIZE : 1 };
    const bookings = new BookingService(Stores.of(opened), new GroupCommitter(opened), clock);

    // Asked for in one turn of the event loop, so one group commit takes all three.
    const answers = await Promise.all(
      ['10:00', '11:00', '12:00'].map((time) => bookings.book(careId, BookAppointmentRequest.parse(validBooking({ appointment_time: time })), undefined)),
    );

    expect(answers.map(({ status, body }) => [status, (body as BookAppointmentResponse).success])).toEqual([
      [200, true],
      [200, true],
      [200, true],
    ]);
    expect(statements.filter((text) => /from "clinics"/.test(text))).toHaveLength(1);
    expect(statements.filter((text) => /^insert into "appointments"/.test(text))).toHaveLength(3);
  });
});
