import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffMetrics } from '../../../bff/metrics/bff-metrics.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { defaultStub, startBff, startStubUpstream, type RunningBff, type StubUpstream } from '../support/bff-harness.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

const SITES = 4;
const PATHS = ['/organization', '/website', '/treatments', '/dentists'];

/**
 * Fairness between sites, as they are wired: every site's token
 * exchange passes one gate (TOKEN_EXCHANGES_MAX_IN_FLIGHT), and each site's
 * upstream requests pass a gate of its own (UPSTREAM_MAX_IN_FLIGHT_PER_SITE).
 * Counted at a slow stub upstream, by app key.
 */
describe.each(ENGINES)('the upstream gates of many sites, the sites database on %s', (engine) => {
  let stub: StubUpstream;
  let testDb: SitesTestDatabase;
  let database: SitesDatabase;
  let bff: RunningBff;
  const siteIds: string[] = [];
  let exchanges = { now: 0, most: 0 };
  const reads = new Map<string, { now: number; most: number }>();
  const metrics = new BffMetrics();

  beforeAll(async () => {
    stub = await startStubUpstream(async (req, res) => {
      const exchange = req.url === '/api/v1/granttoken';
      const key = String(req.headers['x-app-key']);
      const count = exchange ? exchanges : (reads.get(key) ?? reads.set(key, { now: 0, most: 0 }).get(key)!);
      count.now++;
      count.most = Math.max(count.most, count.now);
      await sleep(60);
      count.now--;
      await defaultStub(req, res);
    });
    testDb = await sitesTestDatabase(engine);
    database = await openSitesDatabase(testDb.url);
    const store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
    for (let i = 0; i < SITES; i++) {
      const file = { name: `site ${i}`, upstream_url: stub.api, app_key: `ck_site_${i}`, app_secret_key: `secret-${i}`, time_zone: 'Europe/London' };
      siteIds.push(await store.create(SiteFile.parse(file), new Date()));
    }
    bff = await startBff(
      stub.api,
      { appKey: 'ck_default', secret: 'secret-default' },
      { tokenExchangesMaxInFlight: 1, upstreamMaxInFlightPerSite: 2 },
      undefined,
      undefined,
      metrics,
      store,
    );
  });

  afterAll(async () => {
    await bff.close();
    await database.close();
    await testDb.remove();
  });

  it('lets one token exchange at a time through for all sites, and two reads at a time per site', async () => {
    exchanges = { now: 0, most: 0 };
    const answers = await Promise.all(
      siteIds.flatMap((id) => PATHS.map((path) => fetch(`${bff.baseUrl}/s/${id}/api${path}`).then((res) => res.status))),
    );
    expect(answers.every((status) => status === 200 || status === 502)).toBe(true);
    expect(stub.requests.filter((req) => req.url === '/api/v1/granttoken')).toHaveLength(SITES);
    expect(exchanges.most).toBe(1);
    for (let i = 0; i < SITES; i++) expect(reads.get(`ck_site_${i}`)?.most, `site ${i}`).toBe(2);
  });

  it('labels metrics by route template, never by site id', async () => {
    await fetch(`${bff.baseUrl}/s/${siteIds[0]!}/api/treatments`);
    const text = await metrics.registry.metrics();
    expect(text).toContain('route="/s/:site/api/treatments"');
    for (const id of siteIds) expect(text).not.toContain(id);
  });
});
