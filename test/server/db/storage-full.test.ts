import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BookAppointmentResponse } from '../../../contract/index.js';
import { DATABASE_FAULT_LOG_INTERVAL_MS } from '../../../server/http/database-errors.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { TEST_ENGINE } from '../support/test-database.js';
import { authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

interface Line {
  level: number;
  msg: string;
  answersSinceLastLine?: number;
  err?: { stack?: string; code?: string };
  req?: { path: string };
}

const STORAGE_FULL = {
  success: false,
  message: 'The database has no room for new data; nothing was stored',
  error_code: 'storage_full',
};
const FULL_LINE = 'database storage full: answering 503 storage_full until space is freed';

// A real full database, on SQLite: the file may not grow past its current pages (PRAGMA max_page_count on
// the server's own connection), which SQLite reports as SQLITE_FULL, as it does for a full disk.
describe.runIf(TEST_ENGINE === 'sqlite')('a database whose disk is full', () => {
  const clock = new FakeClock(TEST_NOW);
  const ctx = useTestServer({ clock, setup: async (server) => ({ caller: await authenticatedCaller(server, await seedClinic(server)) }) });
  const lines = () => ctx.server.logs.map((text) => JSON.parse(text) as Line);
  const book = (n: number) => ctx.caller.post('/appointments/book', validBooking({ patient_name: `Patient ${n}` }));

  it('answers 503 storage_full, logs it at error once a minute without a stack, and keeps what was acknowledged', async () => {
    const acknowledged: number[] = [];
    for (let n = 0; n < 3; n++) acknowledged.push(BookAppointmentResponse.parse(await (await book(n)).json()).data.appointment_id);
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(ctx.server.db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(ctx.server.db);

    // Until the pages in hand are used up; bounded, whatever their size.
    let full: Response | undefined;
    for (let n = 3; n < 500 && !full; n++) {
      const res = await book(n);
      if (res.status === 200) acknowledged.push(BookAppointmentResponse.parse(await res.json()).data.appointment_id);
      else full = res;
    }
    expect(full?.status).toBe(503);
    expect(await full!.json()).toStrictEqual(STORAGE_FULL);
    for (let n = 0; n < 5; n++) {
      const res = await book(1000 + n);
      expect(res.status).toBe(503);
      expect(await res.json()).toStrictEqual(STORAGE_FULL);
    }

    // One error line for six answers, none with a stack; each request's own line a warning.
    expect(lines().filter((line) => line.level >= 50)).toMatchObject([{ level: 50, msg: FULL_LINE, answersSinceLastLine: 0, err: { code: 'SQLITE_FULL' } }]);
    expect(lines().filter((line) => line.err?.stack !== undefined)).toEqual([]);
    expect(lines().filter((line) => line.req?.path === '/api/v1/appointments/book' && line.level === 40)).toHaveLength(6);

    clock.advance(DATABASE_FAULT_LOG_INTERVAL_MS);
    expect((await book(2000)).status).toBe(503);
    expect(lines().filter((line) => line.level >= 50)).toMatchObject([
      { msg: FULL_LINE, answersSinceLastLine: 0 },
      { msg: FULL_LINE, answersSinceLastLine: 5 },
    ]);

    // Reads still work, and every booking acknowledged before is there.
    expect((await ctx.caller.get('/treatments')).status).toBe(200);
    const stored = await ctx.server.db.selectFrom('appointments').select('appointment_id').execute();
    expect(acknowledged.filter((id) => !stored.some((row) => row.appointment_id === id))).toEqual([]);
    for (const id of acknowledged) expect((await ctx.caller.get(`/appointments/status/${id}`)).status).toBe(200);
  });
});
