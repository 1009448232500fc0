import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OriginCheckResponse } from '../../../contract/bff.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { seedClinic } from '../../server/support/test-server.js';
import { expectError } from '../../support/expect-error.js';
import { bffClinicFixture, startBff, startStack } from '../support/bff-harness.js';
import { sitesTestDatabase, type SitesTestDatabase } from '../sites/support/sites-test-database.js';

/** The harness's ALLOWED_ORIGINS. */
const ALLOWED = 'https://clinic.example';
const REFUSED = 'https://elsewhere.example';

const stack = await startStack();

const check = (api: string, headers: Record<string, string> = {}) => fetch(`${api}/origin-check`, { headers });

/** The answer's body, which must be the contract's and nothing more. */
async function answerOf(res: Response): Promise<OriginCheckResponse> {
  expect(res.status).toBe(200);
  const body: unknown = await res.json();
  expect(Object.keys(body as object)).toEqual(['success', 'message', 'data']);
  return OriginCheckResponse.parse(body);
}

/** Its yes or no. */
const allowedBy = async (res: Response) => (await answerOf(res)).data.allowed;

/** The sentence for a refused origin of the default site, which the widget logs. */
const refusedByDefaultSite = (origin: string) => `${origin} is not in this BFF's ALLOWED_ORIGINS: add it there to use the widget on that page`;

describe('GET /api/origin-check', () => {
  it('says yes to an origin in ALLOWED_ORIGINS, and no to any other', async () => {
    expect(await allowedBy(await check(stack.bff.api, { origin: ALLOWED }))).toBe(true);
    expect(await allowedBy(await check(stack.bff.api, { origin: REFUSED }))).toBe(false);
    expect(await allowedBy(await check(stack.bff.api, { origin: 'null' }))).toBe(false);
  });

  it('is readable by every page, refused ones above all: CORS `*`, never cached', async () => {
    for (const origin of [ALLOWED, REFUSED]) {
      const res = await check(stack.bff.api, { origin });
      await res.arrayBuffer();

      expect(res.headers.get('access-control-allow-origin'), origin).toBe('*');
      expect(res.headers.get('cache-control'), origin).toBe('no-store');
    }
  });

  it('says yes to a request that needs no CORS: no Origin, or a browser on the same origin', async () => {
    expect(await allowedBy(await check(stack.bff.api))).toBe(true);
    expect(await allowedBy(await check(stack.bff.api, { origin: stack.bff.baseUrl, 'sec-fetch-site': 'same-origin' }))).toBe(true);
  });

  it('says no in a sentence that names the origin sent and ALLOWED_ORIGINS, and no origin it allows', async () => {
    for (const origin of ['https://a.example', REFUSED]) {
      const answer = await answerOf(await check(stack.bff.api, { origin }));

      expect(answer).toEqual({ success: true, message: refusedByDefaultSite(origin), data: { allowed: false } });
      expect(JSON.stringify(answer)).not.toContain(ALLOWED);
    }
  });

  it('repeats no more than 200 characters of an Origin header', async () => {
    const origin = `https://${'a'.repeat(300)}.example`;

    expect((await answerOf(await check(stack.bff.api, { origin }))).message).toBe(refusedByDefaultSite(origin.slice(0, 200)));
  });

  it('counts against the per-IP /api limit like any other request', async () => {
    const limited = await startStack({ bff: { apiRateLimit: { limit: 2, windowMs: 60_000 } } });

    expect((await check(limited.bff.api, { origin: REFUSED })).status).toBe(200);
    expect((await check(limited.bff.api, { origin: REFUSED })).status).toBe(200);
    await expectError(await check(limited.bff.api, { origin: REFUSED }), 429, 'rate_limited');
  });
});

describe('GET /s/{site_id}/api/origin-check', () => {
  let testDb: SitesTestDatabase;
  let database: SitesDatabase;
  let siteId: string;
  let siteApi: string;
  let defaultApi: string;

  beforeAll(async () => {
    testDb = await sitesTestDatabase('sqlite');
    database = await openSitesDatabase(testDb.url);
    const store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
    const clinic = await seedClinic(stack.upstream, bffClinicFixture());
    siteId = await store.create(
      SiteFile.parse({
        name: 'Smile',
        upstream_url: stack.upstream.api,
        app_key: clinic.appKey,
        app_secret_key: clinic.secret,
        allowed_origins: ['https://*.smile.example'],
        time_zone: 'Europe/London',
      }),
      stack.upstream.clock.now(),
    );
    const bff = await startBff(stack.upstream.api, stack.clinic, {}, stack.upstream.clock, undefined, undefined, store);
    siteApi = `${bff.baseUrl}/s/${siteId}/api`;
    defaultApi = bff.api;
  });

  afterAll(async () => {
    await database?.close();
    await testDb?.remove();
  });

  it("answers by the site's own origins, wildcards as its CORS reads them, not the default site's", async () => {
    expect(await allowedBy(await check(siteApi, { origin: 'https://www.smile.example' }))).toBe(true);
    expect(await allowedBy(await check(siteApi, { origin: 'https://smile.example' }))).toBe(false);
    expect(await allowedBy(await check(siteApi, { origin: ALLOWED }))).toBe(false);
    expect(await allowedBy(await check(defaultApi, { origin: 'https://www.smile.example' }))).toBe(false);

    const res = await check(siteApi, { origin: REFUSED });
    await res.arrayBuffer();
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('says no with the `sites set-origins` command for that site and origin, naming none of its origins', async () => {
    const answer = await answerOf(await check(siteApi, { origin: REFUSED }));

    expect(answer.message).toBe(
      `${REFUSED} is not among the origins of site ${siteId}: add it with npm run bff -- sites set-origins --site ${siteId} --origins <its origins>,${REFUSED}`,
    );
    expect(answer.message).not.toContain('smile.example');
  });
});
