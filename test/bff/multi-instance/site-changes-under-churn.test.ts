import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followSiteChanges } from '../../../bff/app.js';
import { announceSiteChange } from '../../../bff/sites/site-changes.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { removeDb, seedClinic, startTestServer, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { eventually } from '../../support/eventually.js';
import { expectError } from '../../support/expect-error.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';
import { serviceAvailable } from '../../support/service-available.js';
import { silentLogger } from '../../support/silent-logger.js';
import { bffClinicFixture, startBff, type RunningBff } from '../support/bff-harness.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from '../sites/support/sites-test-database.js';

/** Sites changed side by side: each one's cycles run at the same time as the others'. */
const SLOTS = 6;
/** The changes a site goes through (everyChange). */
type Step = 'create' | 'suspend' | 'resume' | 'origins' | 'rotate' | 'delete';
/** How often an instance is asked again while a change has not reached it yet. */
const ASK_EVERY_MS = 40;

/** A clinic of the reference server whose content says whose it is. */
function namedClinic(name: string) {
  const fixture = bffClinicFixture();
  return { ...fixture, organization: { ...fixture.organization, name }, website: { ...fixture.website, clinic_name: name } };
}

/**
 * Two BFF instances on one sites database and one Redis, wired as
 * bff/main.ts wires them (followSiteChanges with its default polling), while
 * sites are created, used, changed and deleted side by side, many times:
 * some changes announced on Redis as the CLI announces them, some not (a CLI
 * without REDIS_URL). After every change each instance is asked until it
 * answers as the change says (at its next look at the table at the latest),
 * and then once more, which must not go back.
 *
 * A site created, built by a request and deleted between two looks at the
 * table, unannounced, was once served on for good: the looks compared the
 * table with the last look, in which that site never was.
 */
describe.runIf(serviceAvailable('redis')).each(ENGINES)('site changes under churn, two instances on %s and one Redis', { timeout: 30_000 }, (engine) => {
  let upstream: TestServer;
  let testDb: SitesTestDatabase;
  const databases: SitesDatabase[] = [];
  const links: RedisLink[] = [];
  const watchers: { close(): Promise<void> }[] = [];
  const instances: RunningBff[] = [];
  const prefix = testKeyPrefix('site-changes-under-churn');
  const secrets = new SiteSecrets(randomBytes(32));
  let alpha: SeededClinic;
  let beta: SeededClinic;
  /** Where the changes are made: a connection of its own, as the CLI's. */
  let admin: SiteStore;
  let adminRedis: RedisLink;

  const store = async () => {
    const database = await openSitesDatabase(testDb.url);
    databases.push(database);
    return new SiteStore(database.db, secrets);
  };
  const link = async () => {
    const made = await openLink(prefix);
    links.push(made);
    return made;
  };

  beforeAll(async () => {
    upstream = await startTestServer();
    alpha = await seedClinic(upstream, namedClinic('Alpha Dental'));
    beta = await seedClinic(upstream, namedClinic('Beta Dental'));
    testDb = await sitesTestDatabase(engine);
    admin = await store();
    adminRedis = await link();
    for (let i = 0; i < 2; i++) {
      const sites = await store();
      const redis = await link();
      const bff = await startBff(upstream.api, alpha, {}, upstream.clock, redis, undefined, sites);
      watchers.push(followSiteChanges(bff, { store: sites, redis, logger: silentLogger() }));
      instances.push(bff);
    }
  });

  afterAll(async () => {
    for (const watcher of watchers) await watcher.close();
    for (const bff of instances) await bff.close();
    for (const made of links) await made.close();
    const redis = await inspector();
    await redis.cleanUp(prefix);
    await redis.close();
    for (const database of databases) await database.close();
    await testDb.remove();
    await upstream.close();
    removeDb(upstream.dbPath);
  });

  const ask = (bff: RunningBff, siteId: string, path: string, origin?: string) =>
    fetch(`${bff.baseUrl}/s/${siteId}/api${path}`, { headers: origin ? { origin } : {} });

  /**
   * Asks every instance until `settled` holds of its answer (at the next look
   * at the table, or at once for an announced change), then once more, which
   * must not go back. How soon a look comes is the watcher's own test's to
   * show, on a fake clock; the bound here only ends a failing test.
   */
  async function reachesEvery(question: (bff: RunningBff) => Promise<Response>, settled: (res: Response) => Promise<boolean>) {
    await Promise.all(
      instances.map(async (bff, index) => {
        await eventually(
          async () => {
            const res = await question(bff);
            if (!(await settled(res))) throw new Error(`instance ${index}: still ${res.status}`);
          },
          { intervalMs: ASK_EVERY_MS },
        );
        const again = await question(bff);
        expect(await settled(again), `instance ${index} went back after settling`).toBe(true);
      }),
    );
  }

  const organizationOf = (name: string) => async (res: Response) =>
    res.status === 200 && ((await res.json()) as { data: { name: string } }).data.name === name;
  const refused = (status: number, code: string) => async (res: Response) => {
    if (res.status !== status) {
      await res.arrayBuffer();
      return false;
    }
    await expectError(res, status, code);
    return true;
  };

  /** A change committed through the admin store, then announced as the CLI announces it when `announced`. */
  async function change(siteId: string, announced: boolean, made: () => Promise<unknown>): Promise<void> {
    await made();
    if (announced) await announceSiteChange(adminRedis, siteId);
  }

  async function createdAndUsed(announced: boolean): Promise<string> {
    const file = SiteFile.parse({
      name: 'Churn',
      upstream_url: upstream.api,
      app_key: alpha.appKey,
      app_secret_key: alpha.secret,
      time_zone: 'Europe/London',
      allowed_origins: ['https://one.example'],
    });
    const siteId = await admin.create(file, new Date());
    if (announced) await announceSiteChange(adminRedis, siteId);
    await reachesEvery((bff) => ask(bff, siteId, '/organization'), organizationOf('Alpha Dental'));
    return siteId;
  }

  async function deleted(siteId: string, announced: boolean) {
    await change(siteId, announced, () => admin.delete(siteId));
    await reachesEvery((bff) => ask(bff, siteId, '/organization'), refused(404, 'not_found'));
  }

  /** Created, built on both instances and deleted at once, unannounced: within one interval of the polling. */
  async function createdUsedDeleted() {
    await deleted(await createdAndUsed(false), false);
  }

  /** Every kind of change to one site, each announced unless `quiet` names it (as a CLI without REDIS_URL makes it). */
  async function everyChange(quiet: readonly Step[] = []) {
    const announced = (step: Step) => !quiet.includes(step);
    const siteId = await createdAndUsed(announced('create'));
    await change(siteId, announced('suspend'), () => admin.setStatus(siteId, 'suspended', new Date()));
    await reachesEvery((bff) => ask(bff, siteId, '/organization'), refused(403, 'site_suspended'));
    await change(siteId, announced('resume'), () => admin.setStatus(siteId, 'active', new Date()));
    await reachesEvery((bff) => ask(bff, siteId, '/organization'), organizationOf('Alpha Dental'));
    await change(siteId, announced('origins'), () => admin.setOrigins(siteId, ['https://two.example'], new Date()));
    await reachesEvery(
      (bff) => ask(bff, siteId, '/organization', 'https://two.example'),
      async (res) => (await res.arrayBuffer(), res.headers.get('access-control-allow-origin') === 'https://two.example'),
    );
    await change(siteId, announced('rotate'), () => admin.rotateSecret(siteId, { app_key: beta.appKey, app_secret_key: beta.secret }, new Date()));
    await reachesEvery((bff) => ask(bff, siteId, '/organization'), organizationOf('Beta Dental'));
    await deleted(siteId, announced('delete'));
  }

  it('answers every change on both instances, deleted and re-created sites included, and never goes back', async () => {
    const slots = Array.from({ length: SLOTS }, (_, slot) => slot);
    // Nothing announced: only the instances' own looks at the table can deliver these.
    await Promise.all(slots.map(() => createdUsedDeleted()));
    // Side by side with those, sites going through every change, some of their changes unannounced.
    const quiet: Step[][] = [['suspend'], ['resume', 'origins'], ['rotate']];
    await Promise.all(slots.map((slot) => (slot % 2 === 0 ? everyChange(quiet[slot / 2]) : createdUsedDeleted())));
    await Promise.all(slots.map(() => createdUsedDeleted()));
  });
});
