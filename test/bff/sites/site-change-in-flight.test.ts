import { randomBytes } from 'node:crypto';
import { createServer, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { removeDb, seedClinic, startTestServer, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { closeWhenScopeEnds, once } from '../../support/scoped-teardown.js';
import { bffClinicFixture, closeServer, listen, startBff } from '../support/bff-harness.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

function namedClinic(name: string) {
  const fixture = bffClinicFixture();
  return { ...fixture, organization: { ...fixture.organization, name }, website: { ...fixture.website, clinic_name: name } };
}

/**
 * A proxy in front of the reference server that can hold the answer to the
 * next GET of /organization until released: a content fetch still in flight
 * when a site changes.
 */
async function holdingProxy(upstreamApi: string) {
  const target = new URL(upstreamApi);
  let hold: { held: () => void; release: Promise<void> } | undefined;
  const server = createServer((req, res) => {
    const holding = req.method === 'GET' && req.url?.endsWith('/organization') ? hold : undefined;
    if (holding) hold = undefined;
    const forwarded = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      void (async () => {
        if (holding) {
          holding.held();
          await holding.release;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      })();
    });
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  const baseUrl = await listen(server);
  closeWhenScopeEnds(once(() => closeServer(server)));
  return {
    api: `${baseUrl}${target.pathname}`,
    /** Holds the next /organization answer; resolves `held` once it is held, and lets it go on `release()`. */
    holdNextOrganization() {
      let release!: () => void;
      let held!: () => void;
      const isHeld = new Promise<void>((resolve) => (held = resolve));
      hold = { held, release: new Promise<void>((resolve) => (release = resolve)) };
      return { held: isHeld, release };
    },
  };
}

/**
 * A site's content being fetched upstream when the site changes: the answer,
 * fetched with the key pair of before the change, arrives after the site was
 * dropped. It answers the request that asked before the change, and is never
 * served by the site as rebuilt after it (here: a key pair of another clinic).
 */
describe.each(ENGINES)('a site change while its content is in flight, the sites database on %s', (engine) => {
  let upstream: TestServer;
  let alpha: SeededClinic;
  let beta: SeededClinic;
  let testDb: SitesTestDatabase;
  let database: SitesDatabase;

  beforeAll(async () => {
    upstream = await startTestServer();
    alpha = await seedClinic(upstream, namedClinic('Alpha Dental'));
    beta = await seedClinic(upstream, namedClinic('Beta Dental'));
    testDb = await sitesTestDatabase(engine);
    database = await openSitesDatabase(testDb.url);
  });

  afterAll(async () => {
    await database.close();
    await testDb.remove();
    await upstream.close();
    removeDb(upstream.dbPath);
  });

  it('never serves the answer of the site as it was before the change', async () => {
    const proxy = await holdingProxy(upstream.api);
    const store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
    const file = { name: 'Smile', upstream_url: proxy.api, app_key: alpha.appKey, app_secret_key: alpha.secret, time_zone: 'Europe/London' };
    const siteId = await store.create(SiteFile.parse(file), new Date());
    const bff = await startBff(upstream.api, alpha, {}, upstream.clock, undefined, undefined, store);
    const organization = () => fetch(`${bff.baseUrl}/s/${siteId}/api/organization`);
    const nameIn = async (res: Response) => ((await res.json()) as { data: { name: string } }).data.name;

    const hold = proxy.holdNextOrganization();
    const before = organization();
    await hold.held;
    await store.rotateSecret(siteId, { app_key: beta.appKey, app_secret_key: beta.secret }, new Date());
    bff.siteRegistry!.drop(siteId); // what the change watcher does when it sees the change
    hold.release();

    expect(await nameIn(await before)).toBe('Alpha Dental');
    expect(await nameIn(await organization())).toBe('Beta Dental');
  });

  /**
   * What lands after the drop would outlive it: the held answer (a fetch
   * dropSite could not list), and the bundle built from it (set once its
   * parts are in). Neither is kept: the suspended site holds nothing.
   */
  it.each([
    ['a resource', '/organization'],
    ['the content bundle', '/content'],
  ])('keeps nothing of %s fetched for a site suspended meanwhile', async (_what, path) => {
    const proxy = await holdingProxy(upstream.api);
    const store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
    const file = { name: 'Smile', upstream_url: proxy.api, app_key: alpha.appKey, app_secret_key: alpha.secret, time_zone: 'Europe/London' };
    const siteId = await store.create(SiteFile.parse(file), new Date());
    const bff = await startBff(upstream.api, alpha, {}, upstream.clock, undefined, undefined, store);
    const get = () => fetch(`${bff.baseUrl}/s/${siteId}/api${path}`);

    const hold = proxy.holdNextOrganization();
    const before = get();
    await hold.held;
    await store.setStatus(siteId, 'suspended', new Date());
    bff.siteRegistry!.drop(siteId); // what the change watcher does when it sees the change
    hold.release();

    expect((await before).status).toBe(200);
    expect(bff.contentStore.countOf(siteId)).toBe(0);
    expect((await get()).status).toBe(403);
  });
});
