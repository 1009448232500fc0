import { randomBytes } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBffConfig, type BffConfig } from '../../../bff/config.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { CONTENT_BUNDLE_PATH, ContentBundleResponse } from '../../../contract/bff.js';
import { removeDb, seedClinic, startTestServer, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { bffClinicFixture, startBff } from '../support/bff-harness.js';
import { sitesTestDatabase, type SitesTestDatabase } from '../sites/support/sites-test-database.js';
import { rawGet } from './raw-get.js';

/** The BFF's notification settings as the env gives them, with SMTP_URL and MAIL_FROM when `relay`: only the relay matters here. */
function notifications(relay: boolean): BffConfig['notifications'] {
  return parseBffConfig({
    UPSTREAM_URL: 'http://127.0.0.1:1/api/v1',
    APP_KEY: 'ck_offers',
    APP_SECRET_KEY: 'sk_offers',
    BOOKING_REF_SECRET: 'a-booking-reference-secret-for-the-offers-test',
    ...(relay ? { SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'bookings@clinic.example' } : {}),
  }).notifications;
}

const PUBLIC_ORIGIN = 'https://book.clinic.example';

/** Each way a BFF may be set up, and whether its sites can send patients e-mail. */
const SETUPS: { name: string; config: Partial<BffConfig>; offered: boolean }[] = [
  { name: 'a mail relay and PUBLIC_ORIGIN', config: { notifications: notifications(true), publicOrigin: PUBLIC_ORIGIN }, offered: true },
  { name: 'a mail relay, no PUBLIC_ORIGIN (no unsubscribe link)', config: { notifications: notifications(true), publicOrigin: undefined }, offered: false },
  { name: 'PUBLIC_ORIGIN, no mail relay', config: { notifications: notifications(false), publicOrigin: PUBLIC_ORIGIN }, offered: false },
];

describe("GET /api/content's offers.confirmation_email follows the site's settings", () => {
  let upstream: TestServer;
  let clinic: SeededClinic;
  let testDb: SitesTestDatabase;
  let database: SitesDatabase;
  let store: SiteStore;
  let siteId: string;

  beforeAll(async () => {
    upstream = await startTestServer();
    clinic = await seedClinic(upstream, bffClinicFixture());
    testDb = await sitesTestDatabase('sqlite');
    database = await openSitesDatabase(testDb.url);
    store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
    const file = SiteFile.parse({
      name: 'a site',
      upstream_url: upstream.api,
      app_key: clinic.appKey,
      app_secret_key: clinic.secret,
      time_zone: 'Europe/London',
      booking_rules: { default_duration_minutes: 15 },
    });
    siteId = await store.create(file, upstream.clock.now());
  });

  afterAll(async () => {
    await database.close();
    await testDb.remove();
    await upstream.close();
    removeDb(upstream.dbPath);
  });

  const bundleAt = async (url: string, headers: Record<string, string> = {}) => {
    const res = await rawGet(url, headers);
    expect(res.status).toBe(200);
    const body = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body) : res.body;
    return { res, bundle: ContentBundleResponse.parse(JSON.parse(body.toString())) };
  };

  it.each(SETUPS)('with $name: offered $offered, to the default site and to a site of the database', async ({ config, offered }) => {
    const bff = await startBff(upstream.api, clinic, config, upstream.clock, undefined, undefined, store);

    const home = await bundleAt(`${bff.api}${CONTENT_BUNDLE_PATH}`);
    const site = await bundleAt(`${bff.baseUrl}/s/${siteId}/api${CONTENT_BUNDLE_PATH}`);

    expect(home.bundle.offers).toEqual({ confirmation_email: offered });
    expect(site.bundle.offers).toEqual({ confirmation_email: offered });
    // The same in the precompressed copy a browser gets, under that copy's own ETag.
    const compressed = await bundleAt(`${bff.api}${CONTENT_BUNDLE_PATH}`, { 'accept-encoding': 'br' });
    expect(compressed.res.headers['content-encoding']).toBe('br');
    expect(compressed.bundle).toEqual(home.bundle);
    await bff.close();
  });

  it("changes the bundle's ETag with the offer, the content being the same", async () => {
    const offering = await startBff(upstream.api, clinic, SETUPS[0]!.config, upstream.clock, undefined, undefined, store);
    const silent = await startBff(upstream.api, clinic, SETUPS[2]!.config, upstream.clock, undefined, undefined, store);

    const withOffer = await bundleAt(`${offering.api}${CONTENT_BUNDLE_PATH}`);
    const without = await bundleAt(`${silent.api}${CONTENT_BUNDLE_PATH}`);

    expect(withOffer.bundle.data).toEqual(without.bundle.data);
    expect(withOffer.res.headers.etag).not.toBe(without.res.headers.etag);
    // A browser holding the other's copy gets the whole answer, not a 304.
    expect((await rawGet(`${offering.api}${CONTENT_BUNDLE_PATH}`, { 'if-none-match': String(without.res.headers.etag) })).status).toBe(200);
    await offering.close();
    await silent.close();
  });
});
