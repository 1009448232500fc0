import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followSiteChanges } from '../../../bff/app.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { removeDb, seedClinic, startTestServer, type TestServer } from '../../server/support/test-server.js';
import { eventually } from '../../support/eventually.js';
import { expectError } from '../../support/expect-error.js';
import { silentLogger } from '../../support/silent-logger.js';
import { bffClinicFixture, startBff, type RunningBff } from '../support/bff-harness.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

/**
 * Asks until `settled` holds of an answer: a change shows at an instance's next look at the sites table,
 * SITE_POLL_MS after it at the latest (that it is within the 5 s promised is site-changes.test.ts's to show,
 * on a fake clock). The bound only ends a test that fails.
 */
function settles(ask: () => Promise<Response>, settled: (res: Response) => boolean): Promise<Response> {
  return eventually(
    async () => {
      const res = await ask();
      if (settled(res)) return res;
      await res.arrayBuffer();
      throw new Error(`not settled: ${res.status}`);
    },
    { intervalMs: 100 },
  );
}

/**
 * Item 7 as the BFF is wired (followSiteChanges, as bff/main.ts calls it,
 * with its default polling and no Redis): two BFF instances on one sites
 * database; a change made beside them reaches both, and a suspended
 * site's cached content is gone from each. Each test changes a site of its own.
 */
describe.each(ENGINES)('site changes reaching two running BFFs, the sites database on %s', (engine) => {
  let upstream: TestServer;
  let testDb: SitesTestDatabase;
  const databases: SitesDatabase[] = [];
  const watchers: { close(): Promise<void> }[] = [];
  let admin: SiteStore;
  let instances: RunningBff[] = [];
  let newSite: () => Promise<string>;
  const secrets = new SiteSecrets(randomBytes(32));

  beforeAll(async () => {
    upstream = await startTestServer();
    const clinic = await seedClinic(upstream, bffClinicFixture());
    testDb = await sitesTestDatabase(engine);
    const open = async () => {
      const database = await openSitesDatabase(testDb.url);
      databases.push(database);
      return new SiteStore(database.db, secrets);
    };
    admin = await open();
    const file = { name: 'Smile', upstream_url: upstream.api, app_key: clinic.appKey, app_secret_key: clinic.secret, time_zone: 'Europe/London' };
    newSite = () => admin.create(SiteFile.parse({ ...file, allowed_origins: ['https://smile.example'] }), new Date());
    for (let i = 0; i < 2; i++) {
      const store = await open();
      const bff = await startBff(upstream.api, clinic, {}, upstream.clock, undefined, undefined, store);
      watchers.push(followSiteChanges(bff, { store, logger: silentLogger() }));
      instances.push(bff);
    }
  });

  afterAll(async () => {
    for (const watcher of watchers) await watcher.close();
    for (const bff of instances) await bff.close();
    instances = [];
    for (const database of databases) await database.close();
    await testDb.remove();
    await upstream.close();
    removeDb(upstream.dbPath);
  });

  const get = (bff: RunningBff, siteId: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${bff.baseUrl}/s/${siteId}/api${path}`, { headers });

  it('gives a site new origins on every instance', async () => {
    const siteId = await newSite();
    for (const bff of instances) expect((await get(bff, siteId, '/treatments')).status).toBe(200);
    await admin.setOrigins(siteId, ['https://new-smile.example'], new Date());
    for (const bff of instances) {
      const res = await settles(
        () => get(bff, siteId, '/treatments', { origin: 'https://new-smile.example' }),
        (answer) => answer.headers.get('access-control-allow-origin') === 'https://new-smile.example',
      );
      expect(res.status).toBe(200);
    }
  });

  it('gives a site new origins on every instance when two changes fall in one millisecond (updated_at unmoved)', async () => {
    const siteId = await newSite();
    // Built before the first change, so that each instance is served the first origins only once a look saw that change.
    for (const bff of instances) expect((await get(bff, siteId, '/treatments')).status).toBe(200);
    const at = new Date();
    await admin.setOrigins(siteId, ['https://first.example'], at);
    for (const bff of instances) {
      await settles(
        () => get(bff, siteId, '/treatments', { origin: 'https://first.example' }),
        (answer) => answer.headers.get('access-control-allow-origin') === 'https://first.example',
      );
    }
    await admin.setOrigins(siteId, ['https://second.example'], at);
    for (const bff of instances) {
      const res = await settles(
        () => get(bff, siteId, '/treatments', { origin: 'https://second.example' }),
        (answer) => answer.headers.get('access-control-allow-origin') === 'https://second.example',
      );
      expect(res.status).toBe(200);
    }
  });

  it('refuses a suspended site on every instance, its cached content emptied, and serves it again on resume', async () => {
    const siteId = await newSite();
    for (const bff of instances) {
      expect((await get(bff, siteId, '/dentists')).status).toBe(200);
      expect(bff.contentStore.countOf(siteId)).toBeGreaterThan(0);
    }
    await admin.setStatus(siteId, 'suspended', new Date());
    for (const bff of instances) {
      await expectError(await settles(() => get(bff, siteId, '/dentists'), (res) => res.status === 403), 403, 'site_suspended');
      expect(bff.contentStore.countOf(siteId)).toBe(0);
    }
    await admin.setStatus(siteId, 'active', new Date());
    for (const bff of instances) expect((await settles(() => get(bff, siteId, '/dentists'), (res) => res.status === 200)).status).toBe(200);
  });

  it('answers a deleted site 404 on every instance', async () => {
    const siteId = await newSite();
    for (const bff of instances) expect((await get(bff, siteId, '/dentists')).status).toBe(200);
    await admin.delete(siteId);
    for (const bff of instances) await expectError(await settles(() => get(bff, siteId, '/dentists'), (res) => res.status === 404), 404, 'not_found');
  });
});
