import { randomBytes } from 'node:crypto';
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followSiteChanges } from '../../../bff/app.js';
import { announceSiteChange, siteChangesChannel } from '../../../bff/sites/site-changes.js';
import { newSiteId } from '../../../bff/sites/site-id.js';
import { UNKNOWN_SITE_TTL_MS } from '../../../bff/sites/site-registry.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase, type SitesDatabase, type SitesTables } from '../../../bff/sites/sites-database.js';
import { removeDb, seedClinic, startTestServer, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { eventually } from '../../support/eventually.js';
import { expectError } from '../../support/expect-error.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';
import { serviceAvailable } from '../../support/service-available.js';
import { silentLogger } from '../../support/silent-logger.js';
import { bffClinicFixture, startBff, type RunningBff } from '../support/bff-harness.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

/** The BFF's per-IP API limit in these tests: the production default (API_RATE_LIMIT). */
const API_LIMIT = { limit: 300, windowMs: 60_000 };
/** Long enough that only an announcement can be what delivered a change. */
const NO_POLLING_MS = 600_000;

/** Counts every query sent through the Kysely it is plugged into: the BFF's reads of its sites table. */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    this.count += 1;
    return node;
  }
  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

/**
 * Unknown well-formed site ids, on a BFF serving the sites of its database:
 * answered 404 from a short memory instead of a database read each, counted
 * per client IP so that a run of them ends in 429, and forgotten as soon as
 * the id becomes a site.
 */
describe.each(ENGINES)('unknown site ids, the sites database on %s', (engine) => {
  let upstream: TestServer;
  let clinic: SeededClinic;
  let testDb: SitesTestDatabase;
  const databases: SitesDatabase[] = [];
  const secrets = new SiteSecrets(randomBytes(32));
  /** Where sites are made and looked at, beside the BFF, as the CLI does. */
  let admin: { store: SiteStore; db: Kysely<SitesTables> };

  const open = async (plugin?: KyselyPlugin) => {
    const database = await openSitesDatabase(testDb.url);
    databases.push(database);
    const db = plugin ? database.db.withPlugin(plugin) : database.db;
    return { store: new SiteStore(db, secrets), db };
  };

  /** A BFF whose reads of the sites table are counted, at the production per-IP limit, behind a proxy that names the client. */
  async function countedBff() {
    const reads = new QueryCounter();
    const { store } = await open(reads);
    const clock = new FakeClock(TEST_NOW);
    const bff = await startBff(upstream.api, clinic, { apiRateLimit: API_LIMIT, trustProxy: true }, clock, undefined, undefined, store);
    return { bff, reads, clock };
  }

  const ask = (bff: RunningBff, siteId: string, ip = '203.0.113.10') =>
    fetch(`${bff.baseUrl}/s/${siteId}/api/organization`, { headers: { 'x-forwarded-for': ip } });

  const newSite = () =>
    admin.store.create(
      SiteFile.parse({ name: 'Smile', upstream_url: upstream.api, app_key: clinic.appKey, app_secret_key: clinic.secret, time_zone: 'Europe/London' }),
      new Date(),
    );

  beforeAll(async () => {
    upstream = await startTestServer();
    clinic = await seedClinic(upstream, bffClinicFixture());
    testDb = await sitesTestDatabase(engine);
    admin = await open();
  });

  afterAll(async () => {
    for (const database of databases) await database.close();
    await testDb.remove();
    await upstream.close();
    removeDb(upstream.dbPath);
  });

  it('answers an unknown id 404 from memory: asked 40 times, the database is read once, and again once it has expired', async () => {
    const { bff, reads, clock } = await countedBff();
    const unknown = newSiteId();

    for (let i = 0; i < 40; i++) await expectError(await ask(bff, unknown), 404, 'not_found');
    expect(reads.count).toBe(1);

    clock.advance(UNKNOWN_SITE_TTL_MS);
    await expectError(await ask(bff, unknown), 404, 'not_found');
    expect(reads.count).toBe(2);
  });

  it('ends 400 requests for unknown ids from one IP in 429 rate_limited, read no more, and still serves that IP a site it holds and other IPs', async () => {
    const { bff, reads } = await countedBff();
    const served = await newSite();
    expect((await ask(bff, served)).status).toBe(200);
    const readsBefore = reads.count;

    const statuses: number[] = [];
    for (let i = 0; i < 400; i++) {
      const res = await ask(bff, newSiteId());
      statuses.push(res.status);
      if (res.status === 429) await expectError(res, 429, 'rate_limited');
      else await expectError(res, 404, 'not_found');
    }

    // The site found above gave its count back: every one of the limit's requests is an unknown id.
    expect(statuses.filter((status) => status === 404)).toHaveLength(API_LIMIT.limit);
    expect(statuses.slice(API_LIMIT.limit).every((status) => status === 429)).toBe(true);
    expect(reads.count - readsBefore).toBe(API_LIMIT.limit);
    expect((await ask(bff, served)).status).toBe(200);
    await expectError(await ask(bff, newSiteId(), '198.51.100.20'), 404, 'not_found');
  });

  /** Asks until the site is served (404 until then), at the watcher's next look or announcement; the bound only ends a failing test. */
  async function servedAgain(bff: RunningBff, siteId: string) {
    await eventually(
      async () => {
        const res = await ask(bff, siteId);
        if (res.status === 200) return;
        await expectError(res, 404, 'not_found');
        throw new Error(`${siteId} still 404`);
      },
      { intervalMs: 50 },
    );
  }

  /** A site deleted, asked for until its 404 is remembered, then put back as it was (a backup restored): its row and its id. */
  async function deletedAndRemembered(bff: RunningBff, reads: QueryCounter) {
    const siteId = await newSite();
    const row = await admin.db.selectFrom('sites').selectAll().where('site_id', '=', siteId).executeTakeFirstOrThrow();
    await admin.store.delete(siteId);
    await expectError(await ask(bff, siteId), 404, 'not_found');
    const remembered = reads.count;
    for (let i = 0; i < 10; i++) await expectError(await ask(bff, siteId), 404, 'not_found');
    expect(reads.count).toBe(remembered);
    return { siteId, restore: () => admin.db.insertInto('sites').values(row).execute() };
  }

  it('forgets an unknown id once it is a site: a site restored under it is served again by polling alone', async () => {
    const { bff, reads } = await countedBff();
    const { store } = await open();
    const watcher = followSiteChanges(bff, { store, logger: silentLogger() });
    const { siteId, restore } = await deletedAndRemembered(bff, reads);

    await restore();
    await servedAgain(bff, siteId);
    await watcher.close();
  });

  it.runIf(serviceAvailable('redis'))('forgets an unknown id at once when the site is announced on Redis', async () => {
    const prefix = testKeyPrefix('unknown-sites');
    const [listening, announcing] = [await openLink(prefix), await openLink(prefix)];
    const { bff, reads } = await countedBff();
    const { store } = await open();
    const redis = await inspector();
    const watcher = followSiteChanges(bff, { store, redis: listening, pollMs: NO_POLLING_MS, logger: silentLogger() });
    const { siteId, restore } = await deletedAndRemembered(bff, reads);
    // Announced once the watcher is subscribed (Redis counts it): an announcement before that reaches no one.
    await eventually(async () => expect(await redis.subscribers(siteChangesChannel(listening))).toBe(1));

    await restore();
    await announceSiteChange(announcing, siteId);
    await servedAgain(bff, siteId);

    await watcher.close();
    await listening.close();
    await announcing.close();
    await redis.cleanUp(prefix);
    await redis.close();
  });
});
