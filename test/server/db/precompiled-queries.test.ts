import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type Compilable, type RawBuilder } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import * as appointmentStore from '../../../server/appointments/appointment.store.js';
import * as idempotencyStore from '../../../server/appointments/idempotency.store.js';
import * as tokenStore from '../../../server/auth/token.store.js';
import * as clinicSnapshotStore from '../../../server/clinics/clinic-snapshot.store.js';
import type { Db } from '../../../server/db/database.js';
import { BUILT_EACH_TIME, compileOn, hotQuery, PrecompiledQueries, type HotQuery } from '../../../server/db/performance/precompiled-queries.js';
import type { Tables } from '../../../server/db/schema.js';
import { ImmediateSqliteDialect } from '../../../server/db/sqlite-immediate-dialect.js';

/**
 * Guard of a hot-path trick (docs/performance.md): server/db/performance/precompiled-queries.ts
 * compiles each hot query once, with a placeholder per value, and then sends
 * the kept SQL with the values put in the placeholders' places. It relies on
 * Kysely compiling a builder to the same SQL whatever its values, each value
 * sent as one parameter, unchanged. If an upgrade compiles a value otherwise
 * (written into the SQL, a null as `is null`, a column left out), the SQL
 * Kysely would send and the one kept differ here, on the dialect it changed.
 *
 * Every hot query, each with two sets of values (nulls where a column takes
 * them), compiled on the server's two dialects both ways: Kysely's own compile
 * of the builder with the real values, and what one PrecompiledQueries sends
 * for the first set and then the second.
 */

const sqlite = new SQLite(':memory:');
const dialects: Record<string, Db> = {
  sqlite: new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) }),
  // The pool connects on the first query only, and nothing here is run.
  postgres: new Kysely<Tables>({ dialect: new PostgresDialect({ pool: new pg.Pool({ max: 1 }) }) }),
};
afterAll(() => sqlite.close());

const appointment = {
  care_id: 1,
  patient_name: 'Ada Example',
  patient_phone: '+44 20 7946 0000',
  address: '1 High Street',
  appointment_date: '2026-11-30',
  appointment_time: '10:00',
  end_time: '10:30',
  doctor_id: 3,
  treatment_id: 4,
  note: 'a note',
  status: 'Scheduled' as const,
  created_at: 1_764_000_000_000,
};
const answer = { care_id: 1, idempotency_key: 'key-1', request_hash: 'hash-1', status_code: 200, response_json: '{"success":true}', created_at: 1_764_000_000_000 };

type AnyHotQuery = HotQuery<never, Compilable<unknown> | RawBuilder<unknown>>;

/** Each hot query by its exported name, with two sets of values. */
const SAMPLES: Record<string, [AnyHotQuery, unknown[]]> = {
  UNREVOKED_TOKEN: [tokenStore.UNREVOKED_TOKEN, [{ tokenHash: 'hash-a', appKey: 'ak_a' }, { tokenHash: 'hash-b', appKey: 'ak_b' }]],
  CLINIC_SNAPSHOT: [clinicSnapshotStore.CLINIC_SNAPSHOT, [{ careId: 1 }, { careId: 2 }]],
  DENTIST_DAY_LOCK: [appointmentStore.DENTIST_DAY_LOCK, [{ day: '300000000020261130' }, { day: '700000000020261201' }]],
  OVERLAP: [
    appointmentStore.OVERLAP,
    [
      { doctorId: 3, date: '2026-11-30', start: '10:00', end: '10:30' },
      { doctorId: 7, date: '2026-12-01', start: '14:15', end: '15:00' },
    ],
  ],
  TREATMENT_AND_DENTIST: [
    appointmentStore.TREATMENT_AND_DENTIST,
    [
      { careId: 1, treatmentId: 4, doctorId: 3 },
      { careId: 2, treatmentId: 9, doctorId: 8 },
    ],
  ],
  NEW_APPOINTMENT: [
    appointmentStore.NEW_APPOINTMENT,
    [appointment, { ...appointment, care_id: 2, address: null, doctor_id: null, treatment_id: null, note: null, status: 'Completed' }],
  ],
  KEY_LOCK: [idempotencyStore.KEY_LOCK, [{ careId: 1, key: 'key-1' }, { careId: 2, key: 'key-2' }]],
  STORED_ANSWER: [idempotencyStore.STORED_ANSWER, [{ careId: 1, key: 'key-1', after: 1_763_913_600_000 }, { careId: 2, key: 'key-2', after: 0 }]],
  EXPIRED_KEYS: [idempotencyStore.EXPIRED_KEYS, [{ expiredBy: 1_763_913_600_000 }, { expiredBy: 0 }]],
  NEW_ANSWER: [idempotencyStore.NEW_ANSWER, [answer, { ...answer, care_id: 2, idempotency_key: 'key-2', status_code: 422 }]],
  SAVED_ANSWER: [
    idempotencyStore.SAVED_ANSWER,
    [
      { ...answer, expiredBy: 1_763_913_600_000 },
      { ...answer, care_id: 2, idempotency_key: 'key-2', status_code: 409, expiredBy: 0 },
    ],
  ],
};

const isHotQuery = (value: unknown): value is AnyHotQuery =>
  typeof value === 'object' && value !== null && typeof (value as AnyHotQuery).build === 'function';

describe('precompiled queries (guard: Kysely compiles each value to one parameter, whatever the value)', () => {
  it('has values here for every hot query the stores export', () => {
    const exported = Object.entries({ ...tokenStore, ...clinicSnapshotStore, ...appointmentStore, ...idempotencyStore })
      .filter(([, value]) => isHotQuery(value))
      .map(([name]) => name)
      .sort();
    expect(exported).toEqual(Object.keys(SAMPLES).sort());
  });

  for (const [engine, db] of Object.entries(dialects)) {
    for (const [name, [query, valueSets]] of Object.entries(SAMPLES)) {
      it(`${name} on ${engine}: the same SQL and parameters as Kysely compiles with the real values`, () => {
        const precompiled = new PrecompiledQueries();
        for (const values of valueSets) {
          const kysely = compileOn(db, query.build(db, values as never));
          const kept = precompiled.compiled(db, query, values as never);
          expect({ sql: kept.sql, parameters: kept.parameters }).toEqual({ sql: kysely.sql, parameters: kysely.parameters });
          expect(kept.query).toBe(precompiled.compiled(db, query, values as never).query); // compiled once, not per run
        }
      });
    }
  }
});

describe('precompiled queries refuse what would send other SQL', () => {
  const db = dialects.sqlite!;
  const byCare = (careId: unknown) => db.selectFrom('clinics').select('timezone').where('care_id', '=', careId as number);

  it('a value computed on in the builder', () => {
    const computed = hotQuery('computed', (kysely, { careId }: { careId: number }) => byCare(careId + 1).where('care_id', '>', 0));
    expect(() => new PrecompiledQueries().compiled(db, computed, { careId: 1 })).toThrow(/hot query "computed": careId is computed on/);
  });

  it('a value asked for but not sent as a parameter', () => {
    const unsent = hotQuery('unsent', (kysely, { careId }: { careId: number }) => (void careId, byCare(1)));
    expect(() => new PrecompiledQueries().compiled(db, unsent, { careId: 1 })).toThrow(/hot query "unsent": careId is not sent as a parameter/);
  });

  it('an undefined value, which Kysely would leave out of an insert', () => {
    const note = hotQuery('note', (kysely, { note }: { note: string | null }) => kysely.updateTable('appointments').set({ note }));
    expect(() => new PrecompiledQueries().compiled(db, note, { note: undefined as unknown as null })).toThrow(/hot query "note": note is undefined/);
  });

  it("runs as Kysely's plain way does, on a real database", async () => {
    const memory = new SQLite(':memory:');
    const kysely = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: memory }) });
    const square = hotQuery('square', (_db, { n }: { n: number }) => sql<{ square: number }>`select ${n} * ${n} as square`);
    expect(await new PrecompiledQueries().rows(kysely, square, { n: 7 })).toEqual([{ square: 49 }]);
    expect(await BUILT_EACH_TIME.rows(kysely, square, { n: 7 })).toEqual([{ square: 49 }]);
    await kysely.destroy();
  });
});
