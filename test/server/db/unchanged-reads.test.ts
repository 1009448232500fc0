import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DentistListResponse, TreatmentListResponse } from '../../../contract/index.js';
import type { Db } from '../../../server/db/database.js';
import { openTestDatabase } from '../support/test-database.js';
import { authenticatedCaller, seedClinic, type Caller } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { expectError } from '../../support/expect-error.js';

/**
 * The server answers a token's owner and a clinic's lists from memory while
 * the database is unchanged (server/db/performance/unchanged-reads.ts, SQLite). A change by
 * any connection, its own or another process's (the CLI, a second server),
 * must show in the very next answer. On PostgreSQL every read queries, and the
 * same assertions hold.
 */
const ctx = useTestServer();

/** A clinic of the test's own and its caller: no test sees the names or keys another changed. */
async function ownClinic() {
  const clinic = await seedClinic(ctx.server);
  return { clinic, caller: await authenticatedCaller(ctx.server, clinic) };
}

/** A second connection to the server's database, as another process has it. */
let other: Db;
beforeAll(async () => {
  other = (await openTestDatabase(ctx.server.databaseUrl)).kysely;
});
afterAll(async () => {
  await other.destroy();
});

const treatmentsOf = async (caller: Caller) =>
  TreatmentListResponse.parse(await (await caller.get('/treatments')).json()).data.map((t) => t.treatment_name);
const dentistNames = async (caller: Caller) => DentistListResponse.parse(await (await caller.get('/dentists')).json()).data.map((d) => d.doctor_name);

describe('answers kept while the database is unchanged', () => {
  it('show a treatment renamed, retired or brought back by another connection in the next answer', async () => {
    const { clinic, caller } = await ownClinic();
    const treatmentNames = () => treatmentsOf(caller);
    const before = await treatmentNames();
    expect(before).toEqual(['Check-up', 'Whitening']);
    expect(await treatmentNames()).toEqual(before);

    await other.updateTable('treatments').set({ treatment_name: 'Check-up and clean' }).where('care_id', '=', clinic.careId).where('treatment_name', '=', 'Check-up').execute();
    expect(await treatmentNames()).toEqual(['Check-up and clean', 'Whitening']);

    await other.updateTable('treatments').set({ active: 0 }).where('care_id', '=', clinic.careId).where('treatment_name', '=', 'Whitening').execute();
    expect(await treatmentNames()).toEqual(['Check-up and clean']);

    await other.updateTable('treatments').set({ active: 1 }).where('care_id', '=', clinic.careId).execute();
    expect(await treatmentNames()).toEqual(['Check-up and clean', 'Whitening', 'Old treatment']);
  });

  it("show a change made through the server's own connection in the next answer", async () => {
    const { clinic, caller } = await ownClinic();
    const before = await dentistNames(caller);
    expect(before.length).toBeGreaterThan(0);

    await ctx.server.db.updateTable('dentists').set({ doctor_name: 'Dr Renamed' }).where('care_id', '=', clinic.careId).execute();

    expect(new Set(await dentistNames(caller))).toEqual(new Set(['Dr Renamed']));
  });

  it("keep each clinic's lists apart", async () => {
    const [me, them] = [await ownClinic(), await ownClinic()];
    const ids = async (caller: Caller) =>
      TreatmentListResponse.parse(await (await caller.get('/treatments')).json()).data.map((t) => t.treatment_id);
    const mine = await ids(me.caller);
    const theirs = await ids(them.caller);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.filter((id) => mine.includes(id))).toEqual([]);
    expect(await ids(me.caller)).toEqual(mine);
  });

  it('refuse a token whose key another connection revoked, at the next request', async () => {
    const { clinic, caller } = await ownClinic();
    expect((await caller.get('/treatments')).status).toBe(200);

    await other.updateTable('api_keys').set({ revoked_at: Date.now() }).where('app_key', '=', clinic.appKey).execute();

    await expectError(await caller.get('/treatments'), 401, 'auth_failed');
  });
});
