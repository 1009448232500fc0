import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffMetrics } from '../../../bff/metrics/bff-metrics.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { defaultStub, startBff, startStubUpstream, type RunningBff, type StubUpstream } from '../support/bff-harness.js';
import { HeldCalls } from '../support/held-calls.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

const SITES = 4;
const PATHS = ['/organization', '/website', '/treatments', '/dentists'];

/**
 * Fairness between sites, as they are wired: every site's token
 * exchange passes one gate (TOKEN_EXCHANGES_MAX_IN_FLIGHT), and each site's
 * upstream requests pass a gate of its own (UPSTREAM_MAX_IN_FLIGHT_PER_SITE).
 * Counted at a stub upstream that holds every call until the test lets it go, by app key.
 */
describe.each(ENGINES)('the upstream gates of many sites, the sites database on %s', (engine) => {
  let stub: StubUpstream;
  let testDb: SitesTestDatabase;
  let database: SitesDatabase;
  let store: SiteStore;
  const siteIds: string[] = [];
  /** Each call held at the stub until the test lets it go: `exchange`, or a site's reads under its app key. */
  let calls = new HeldCalls();

  beforeAll(async () => {
    stub = await startStubUpstream(async (req, res) => {
      const answered = await calls.hold(req.url === '/api/v1/granttoken' ? 'exchange' : String(req.headers['x-app-key']));
      await defaultStub(req, res);
      answered();
    });
    testDb = await sitesTestDatabase(engine);
    database = await openSitesDatabase(testDb.url);
    store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
    for (let i = 0; i < SITES; i++) {
      const file = { name: `site ${i}`, upstream_url: stub.api, app_key: `ck_site_${i}`, app_secret_key: `secret-${i}`, time_zone: 'Europe/London' };
      siteIds.push(await store.create(SiteFile.parse(file), new Date()));
    }
  });

  afterAll(async () => {
    await database.close();
    await testDb.remove();
  });

  /** A BFF of the test's own, cold (no token, nothing cached), and a fresh count of the calls at the stub. */
  function coldBff(metrics?: BffMetrics): Promise<RunningBff> {
    calls = new HeldCalls();
    return startBff(
      stub.api,
      { appKey: 'ck_default', secret: 'secret-default' },
      { tokenExchangesMaxInFlight: 1, upstreamMaxInFlightPerSite: 2 },
      undefined,
      undefined,
      metrics,
      store,
    );
  }

  it('lets one token exchange at a time through for all sites, and two reads at a time per site', async () => {
    const bff = await coldBff();
    const exchangesBefore = stub.requests.filter((req) => req.url === '/api/v1/granttoken').length;

    const answered = Promise.all(
      siteIds.flatMap((id) => PATHS.map((path) => fetch(`${bff.baseUrl}/s/${id}/api${path}`).then((res) => res.status))),
    );
    // Held at the stub: the sites' exchanges come one at a time, then each site's four reads two at a time.
    await calls.letThroughAtLimit('exchange', SITES, 1);
    for (let i = 0; i < SITES; i++) await calls.letThroughAtLimit(`ck_site_${i}`, PATHS.length, 2);
    const answers = await answered;

    expect(answers.every((status) => status === 200 || status === 502)).toBe(true);
    expect(stub.requests.filter((req) => req.url === '/api/v1/granttoken').length - exchangesBefore).toBe(SITES);
    expect(calls.most('exchange')).toBe(1);
    for (let i = 0; i < SITES; i++) expect(calls.most(`ck_site_${i}`), `site ${i}`).toBe(2);
  });

  it('labels metrics by route template, never by site id', async () => {
    const metrics = new BffMetrics();
    const bff = await coldBff(metrics);
    for (const key of ['exchange', 'ck_site_0']) calls.release(key);

    await fetch(`${bff.baseUrl}/s/${siteIds[0]!}/api/treatments`);

    const text = await metrics.registry.metrics();
    expect(text).toContain('route="/s/:site/api/treatments"');
    for (const id of siteIds) expect(text).not.toContain(id);
  });
});
