import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { pictureKey } from '../../../contract/rules/pictures.js';
import { parseOutboundAllowlist } from '../../../bff/outbound/outbound-allowlist.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase } from '../../../bff/sites/sites-database.js';
import { removeDb, seedClinic, startTestServer } from '../../server/support/test-server.js';
import { closeWhenScopeEnds, once } from '../../support/scoped-teardown.js';
import { bffClinicFixture, closeServer, listen, startBff } from '../support/bff-harness.js';
import { sitesTestDatabase } from '../sites/support/sites-test-database.js';

/**
 * Two clinics on one BFF share its picture memory: the env clinic (the
 * default site), whose page shows a logo, and a database site whose content
 * names 20 pictures of nearly 1 MiB each, more than the whole store holds.
 * The picture host counts every download.
 */
const BIG_PICTURES = 20;
const BIG = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.alloc(900 * 1024, 1)]);
const LOGO = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

const downloads: string[] = [];
const host = createServer((req, res) => {
  downloads.push(req.url ?? '');
  if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(LOGO);
  else res.writeHead(200, { 'content-type': 'image/jpeg' }).end(BIG);
});
const hostUrl = await listen(host);
closeWhenScopeEnds(once(() => closeServer(host)));

const upstream = await startTestServer();
closeWhenScopeEnds(
  once(async () => {
    await upstream.close();
    removeDb(upstream.dbPath);
  }),
);
const home = bffClinicFixture();
home.organization.logo = `${hostUrl}/logo.png`;
const busy = bffClinicFixture();
const service = busy.website.services[0]!;
busy.website.services = Array.from({ length: BIG_PICTURES }, (_, i) => ({ ...service, image: `${hostUrl}/big-${i}.jpg` }));
const homeClinic = await seedClinic(upstream, home);
const busyClinic = await seedClinic(upstream, busy);

const testDb = await sitesTestDatabase('sqlite');
const database = await openSitesDatabase(testDb.url);
closeWhenScopeEnds(
  once(async () => {
    await database.close();
    await testDb.remove();
  }),
);
const store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
const file = SiteFile.parse({ name: 'Busy', upstream_url: upstream.api, app_key: busyClinic.appKey, app_secret_key: busyClinic.secret, time_zone: 'Europe/London' });
const busySite = await store.create(file, upstream.clock.now());
const bff = await startBff(upstream.api, homeClinic, { outboundAllowlist: parseOutboundAllowlist(new URL(hostUrl).host) }, upstream.clock, undefined, undefined, store);

const picture = async (api: string, url: string) => {
  const res = await fetch(`${api}/pictures/${pictureKey(url)}`);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
};
const downloadsOf = (path: string) => downloads.filter((url) => url === path).length;

describe('the picture store, shared by sites', () => {
  it("keeps a site's logo cached while another site fetches more pictures than the whole store holds", async () => {
    const homeApi = bff.api;
    const busyApi = `${bff.baseUrl}/s/${busySite}/api`;
    expect((await picture(homeApi, `${hostUrl}/logo.png`)).status).toBe(200);

    for (let i = 0; i < BIG_PICTURES; i++) expect((await picture(busyApi, `${hostUrl}/big-${i}.jpg`)).status, `big-${i}`).toBe(200);
    const logo = await picture(homeApi, `${hostUrl}/logo.png`);

    expect(logo.status).toBe(200);
    expect(logo.body.equals(LOGO)).toBe(true);
    // Served from the store: the logo was downloaded once, however much the other site fetched.
    expect(downloadsOf('/logo.png')).toBe(1);
    // The busy site paid for its own churn: its first pictures left its share and are downloaded again.
    expect((await picture(busyApi, `${hostUrl}/big-0.jpg`)).status).toBe(200);
    expect(downloadsOf('/big-0.jpg')).toBe(2);
  });
});
