import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisLink } from '../../../platform/redis-link.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';
import { startBff, startStubUpstream, type RunningBff } from '../support/bff-harness.js';
import { sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

/**
 * Two BFF instances on one Redis and one sites database: a site's per-IP
 * count is one for both instances (its key holds the site and the IP), and
 * another site's is its own, even for the same IP.
 */
describe.runIf(serviceAvailable('redis'))('per-IP limits of sites on two BFFs sharing Redis', () => {
  const prefix = testKeyPrefix('bff-site-limits');
  let testDb: SitesTestDatabase;
  let database: SitesDatabase;
  const links: RedisLink[] = [];
  const instances: RunningBff[] = [];
  let limited: string;
  let other: string;

  beforeAll(async () => {
    const stub = await startStubUpstream();
    testDb = await sitesTestDatabase('sqlite');
    database = await openSitesDatabase(testDb.url);
    const store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
    const file = (name: string, limits?: SiteFile['limits']) =>
      SiteFile.parse({ name, upstream_url: stub.api, app_key: `ck_${name}`, app_secret_key: 'secret', time_zone: 'Europe/London', limits });
    limited = await store.create(file('limited', { api: { limit: 3, window_ms: 60_000 } }), new Date());
    other = await store.create(file('other', { api: { limit: 3, window_ms: 60_000 } }), new Date());
    for (let i = 0; i < 2; i++) {
      const link = await openLink(prefix);
      links.push(link);
      instances.push(await startBff(stub.api, { appKey: 'ck_default', secret: 'secret' }, {}, undefined, link, undefined, store));
    }
  });

  afterAll(async () => {
    for (const bff of instances) await bff.close();
    for (const link of links) await link.close();
    await database.close();
    await testDb.remove();
    const redis = await inspector();
    await redis.cleanUp(prefix);
    await redis.close();
  });

  const statusOf = async (bff: RunningBff, site: string) => (await fetch(`${bff.baseUrl}/s/${site}/api/treatments`)).status;

  it("counts a site's requests from one IP once across instances, and never into another site's count", async () => {
    const [a, b] = instances as [RunningBff, RunningBff];
    expect([await statusOf(a, limited), await statusOf(b, limited), await statusOf(a, limited), await statusOf(b, limited)]).toEqual([200, 200, 200, 429]);
    expect(await statusOf(a, other)).toBe(200);
    expect(await statusOf(b, other)).toBe(200);
  });
});
