import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffBookingResponse } from '../../../contract/bff.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { validBooking } from '../../server/support/test-server.js';
import { expectError } from '../../support/expect-error.js';
import { fixtureIds, startBff, startStack, type RunningBff } from '../support/bff-harness.js';
import { sitesTestDatabase, type SitesTestDatabase } from '../sites/support/sites-test-database.js';

/**
 * Several sites may book with one clinic's app key, and upstream keeps
 * Idempotency-Keys per clinic: the same key and body sent through two sites
 * must be two booking requests, never one site replaying the other's booking
 * and handing out its own reference for it. The stack's clinic is served as
 * the default site (its env settings) and as two sites of the BFF's database.
 */

const stack = await startStack();
const { dentists } = await fixtureIds(stack.bff);
let testDb: SitesTestDatabase;
let database: SitesDatabase;
let bff: RunningBff;
const sites: { one: string; two: string } = { one: '', two: '' };

beforeAll(async () => {
  testDb = await sitesTestDatabase('sqlite');
  database = await openSitesDatabase(testDb.url);
  const store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
  const file = SiteFile.parse({
    name: 'one clinic, another site',
    upstream_url: stack.upstream.api,
    app_key: stack.clinic.appKey,
    app_secret_key: stack.clinic.secret,
    time_zone: 'Europe/London',
    booking_rules: { default_duration_minutes: 15 },
  });
  const now = stack.upstream.clock.now();
  sites.one = await store.create(file, now);
  sites.two = await store.create(file, now);
  bff = await startBff(stack.upstream.api, stack.clinic, {}, stack.upstream.clock, undefined, undefined, store);
});
afterAll(async () => {
  await bff.close();
  await database.close();
  await testDb.remove();
});

const apiOf = (site: 'default' | keyof typeof sites) => (site === 'default' ? bff.api : `${bff.baseUrl}/s/${sites[site]}/api`);

const book = (site: 'default' | keyof typeof sites, body: Record<string, unknown>, key: string) =>
  fetch(`${apiOf(site)}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });

const appointmentsOf = (patient: string) =>
  stack.upstream.db.selectFrom('appointments').select(['appointment_id', 'doctor_id']).where('patient_name', '=', patient).orderBy('appointment_id').execute();

/** The Idempotency-Keys upstream stored that hold `key`, sorted. */
const upstreamKeysHolding = async (key: string) =>
  (await stack.upstream.db.selectFrom('idempotency_keys').select('idempotency_key').where('idempotency_key', 'like', `%${key}%`).orderBy('idempotency_key').execute()).map(
    (row) => row.idempotency_key,
  );

describe('one Idempotency-Key and body sent through two sites of one clinic key', () => {
  it('books "any dentist" twice, through the default site and a site: two appointments, the second not a replay', async () => {
    // A day of its own: which dentist "any dentist" gets depends on what else is booked that day.
    const body = validBooking({ patient_name: 'Twice Booked', appointment_date: '2026-11-25', appointment_time: '10:00' });
    const first = await book('default', body, 'shared-key-any');
    expect(first.status).toBe(200);
    const fromDefault = BffBookingResponse.parse(await first.json()).data;

    const second = await book('one', body, 'shared-key-any');

    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    const fromSite = BffBookingResponse.parse(await second.json()).data;
    expect(fromSite.doctor_id).not.toBe(fromDefault.doctor_id);
    const stored = await appointmentsOf('Twice Booked');
    expect(stored.map((row) => row.doctor_id)).toEqual([fromDefault.doctor_id, fromSite.doctor_id]);
    // The default site's keys go upstream as they came, so a re-send of a booking made before keeps replaying.
    expect(await upstreamKeysHolding('shared-key-any')).toEqual(
      [`shared-key-any:doctor-${fromDefault.doctor_id}`, `${sites.one}:shared-key-any:doctor-${dentists[0]}`, `${sites.one}:shared-key-any:doctor-${fromSite.doctor_id}`].sort(),
    );
  });

  it("refuses the named dentist's second booking 409 on the other site, never replaying the first site's", async () => {
    const body = validBooking({ patient_name: 'Booked Once', appointment_time: '11:00', doctor_id: dentists[0] });
    expect((await book('one', body, 'shared-key-named')).status).toBe(200);

    const second = await book('two', body, 'shared-key-named');

    await expectError(second, 409, 'slot_unavailable');
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(await appointmentsOf('Booked Once')).toHaveLength(1);
    expect(await upstreamKeysHolding('shared-key-named')).toEqual([`${sites.one}:shared-key-named`, `${sites.two}:shared-key-named`].sort());
  });
});
