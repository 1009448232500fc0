import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { BffBookingResponse, BffErrorBody, BffStatusResponse } from '../../../contract/bff.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { openSitesDatabase } from '../../../bff/sites/sites-database.js';
import { removeDb, seedClinic, startTestServer, validBooking } from '../../server/support/test-server.js';
import { closeWhenScopeEnds } from '../../support/scoped-teardown.js';
import { bffClinicFixture, startBff } from '../support/bff-harness.js';
import { sitesTestDatabase } from '../sites/support/sites-test-database.js';
import { outboxRows, requestChange } from './support/changes-stack.js';

/**
 * Change requests on a BFF that serves sites of its database beside its env
 * clinic, both on one clinic of the reference server: a reference is read
 * with its own site's keys only, so another site's is 404 (as a status
 * lookup is), and each site's bookings and requests are kept under its id.
 */

const upstream = await startTestServer();
const clinic = await seedClinic(upstream, bffClinicFixture());
const testDatabase = await sitesTestDatabase('sqlite');
const database = await openSitesDatabase(testDatabase.url);
const store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
const siteId = await store.create(
  SiteFile.parse({
    name: 'Smile Dental',
    upstream_url: upstream.api,
    app_key: clinic.appKey,
    app_secret_key: clinic.secret,
    time_zone: 'Europe/London',
    booking_rules: { default_duration_minutes: 15 },
  }),
  upstream.clock.now(),
);
const bff = await startBff(upstream.api, clinic, {}, upstream.clock, undefined, undefined, store, undefined, database);
closeWhenScopeEnds(async () => {
  await bff.close();
  await database.close();
  await testDatabase.remove();
  await upstream.close();
  removeDb(upstream.dbPath);
});

const siteApi = `${bff.baseUrl}/s/${siteId}/api`;

async function bookOn(api: string, time: string): Promise<string> {
  const res = await fetch(`${api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(validBooking({ appointment_time: time })),
  });
  expect(res.status).toBe(200);
  return BffBookingResponse.parse(await res.json()).data.reference;
}

it("answers another site's reference 404 not_found, both ways, and takes each on its own site", async () => {
  const fromSite = await bookOn(siteApi, '09:00');
  const fromDefault = await bookOn(bff.api, '09:15');

  const crossed = [await requestChange(bff.api, { reference: fromSite, kind: 'cancel' }), await requestChange(siteApi, { reference: fromDefault, kind: 'cancel' })];
  const own = [await requestChange(siteApi, { reference: fromSite, kind: 'cancel' }), await requestChange(bff.api, { reference: fromDefault, kind: 'cancel' })];

  for (const res of crossed) {
    expect(res.status).toBe(404);
    expect(BffErrorBody.parse(await res.json()).error_code).toBe('not_found');
  }
  expect(own.map((res) => res.status)).toEqual([201, 201]);
});

it("keeps each site's requests under its id, and shows them in that site's status view", async () => {
  const reference = await bookOn(siteApi, '09:30');

  await requestChange(siteApi, { reference, kind: 'move', preferred_starts: [{ date: '2026-11-26', time: '10:00' }] });
  const view = BffStatusResponse.parse(
    await (await fetch(`${siteApi}/appointments/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference }) })).json(),
  ).data;

  expect(view.changes).toMatchObject({ move_preferred_starts: [{ date: '2026-11-26', time: '10:00' }], can_request_move: false });
  // The only move request of this file, whatever order its tests run in: kept under the site's id.
  const moves = await database.db.selectFrom('change_requests').select('site_id').where('kind', '=', 'move').execute();
  expect(moves.map((row) => row.site_id)).toEqual([siteId]);
});

it("records a site's bookings under its id, and queues no message for sites without channels", async () => {
  const recorded = async () => (await database.db.selectFrom('booking_records').select('site_id').where('site_id', '=', siteId).execute()).length;
  const before = await recorded();

  await bookOn(siteApi, '09:45');

  expect(await recorded()).toBe(before + 1);
  expect(await outboxRows(database)).toEqual([]);
});
