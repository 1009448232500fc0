import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BffBookingResponse, BffStatusResponse } from '../../../contract/bff.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { expectError } from '../../support/expect-error.js';
import { bffClinicFixture, startBff, type RunningBff } from '../support/bff-harness.js';
import { startDelayingProxy } from './support/delaying-proxy.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

/** A clinic of the reference server under its own name, so that its content says whose it is. */
function namedClinic(name: string) {
  const fixture = bffClinicFixture();
  return { ...fixture, organization: { ...fixture.organization, name }, website: { ...fixture.website, clinic_name: name } };
}

const LOADER = "export * from './clinic-booking-abc123.js';\n";

describe.each(ENGINES)('sites served by one BFF, the sites database on %s', (engine) => {
  let upstream: TestServer;
  let testDb: SitesTestDatabase;
  let database: SitesDatabase;
  let store: SiteStore;
  let bff: RunningBff;
  let widgetDir: string;
  const clinics: Record<'home' | 'alpha' | 'beta', SeededClinic> = {} as never;
  const site: Record<'alpha' | 'twin' | 'beta' | 'suspended' | 'limited', string> = {} as never;

  const siteUrl = (id: string, path: string) => `${bff.baseUrl}/s/${id}${path}`;
  const json = { 'content-type': 'application/json' };

  beforeAll(async () => {
    upstream = await startTestServer();
    clinics.home = await seedClinic(upstream, namedClinic('Home Dental'));
    clinics.alpha = await seedClinic(upstream, namedClinic('Alpha Dental'));
    clinics.beta = await seedClinic(upstream, namedClinic('Beta Dental'));
    // Every request of the two sites waits a random while, so their answers come back out of order.
    const proxy = await startDelayingProxy(upstream.api, 40);

    testDb = await sitesTestDatabase(engine);
    database = await openSitesDatabase(testDb.url);
    store = new SiteStore(database.db, new SiteSecrets(randomBytes(32)));
    const now = upstream.clock.now();
    const file = (clinic: SeededClinic, changes: Partial<SiteFile>) =>
      SiteFile.parse({
        name: 'a site',
        upstream_url: proxy.api,
        app_key: clinic.appKey,
        app_secret_key: clinic.secret,
        time_zone: 'Europe/London',
        booking_rules: { default_duration_minutes: 15 },
        ...changes,
      });
    site.alpha = await store.create(file(clinics.alpha, { allowed_origins: ['https://alpha.example', 'https://*.smile.example'] }), now);
    // Alpha's own clinic and key again: only the site id tells their references apart.
    site.twin = await store.create(file(clinics.alpha, {}), now);
    site.beta = await store.create(file(clinics.beta, { allowed_origins: ['https://beta.example'] }), now);
    site.suspended = await store.create(file(clinics.beta, { allowed_origins: ['https://paused.example'] }), now);
    await store.setStatus(site.suspended, 'suspended', now);
    site.limited = await store.create(file(clinics.beta, { limits: { api: { limit: 3, window_ms: 60_000 } } }), now);

    widgetDir = mkdtempSync(join(tmpdir(), 'bff-sites-widget-'));
    writeFileSync(join(widgetDir, 'clinic-booking.js'), LOADER);
    bff = await startBff(upstream.api, clinics.home, { widgetDir }, upstream.clock, undefined, undefined, store);
  });

  afterAll(async () => {
    await bff.close();
    await database.close();
    await testDb.remove();
    await upstream.close();
    removeDb(upstream.dbPath);
    rmSync(widgetDir, { recursive: true, force: true });
  });

  const tokenExchanges = () =>
    upstream.logs.filter((line) => (JSON.parse(line) as { req?: { path?: string } }).req?.path === '/api/v1/granttoken').length;

  /** Books with the site's (or the default's) first dentist; returns the reference. */
  async function book(api: string, patient: string, time: string): Promise<string> {
    const dentists = (await (await fetch(`${api}/dentists`)).json()) as { data: { id: number }[] };
    const res = await fetch(`${api}/appointments/book`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(validBooking({ patient_name: patient, appointment_time: time, doctor_id: dentists.data[0]!.id })),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return BffBookingResponse.parse(await res.json()).data.reference;
  }
  const lookUp = (api: string, reference: string) =>
    fetch(`${api}/appointments/status`, { method: 'POST', headers: json, body: JSON.stringify({ reference }) });

  it('fetches no token at start, then one per site on its first request, each with its own key', async () => {
    // A BFF of its own, just started: the suite's has served the other tests' sites.
    const before = tokenExchanges();
    const fresh = await startBff(upstream.api, clinics.home, { widgetDir }, upstream.clock, undefined, undefined, store);
    const freshUrl = (id: string, path: string) => `${fresh.baseUrl}/s/${id}${path}`;
    expect(tokenExchanges() - before).toBe(0);
    const [alpha, beta] = await Promise.all([
      fetch(freshUrl(site.alpha, '/api/organization')).then((res) => res.text()),
      fetch(freshUrl(site.beta, '/api/organization')).then((res) => res.text()),
    ]);
    expect(alpha).toContain('Alpha Dental');
    expect(alpha).not.toContain('Beta Dental');
    expect(beta).toContain('Beta Dental');
    expect(beta).not.toContain('Alpha Dental');
    expect(tokenExchanges() - before).toBe(2);
    await fetch(freshUrl(site.alpha, '/api/treatments'));
    await fetch(freshUrl(site.beta, '/api/treatments'));
    expect(tokenExchanges() - before).toBe(2);
  });

  it('serves the env clinic unchanged at /api, as the default site', async () => {
    const home = await (await fetch(`${bff.api}/organization`)).text();
    expect(home).toContain('Home Dental');
    expect(home).not.toContain('Alpha Dental');
  });

  it("answers a site's reference on that site only: 404 on every other, the default site's included", async () => {
    const alphaApi = siteUrl(site.alpha, '/api');
    const betaApi = siteUrl(site.beta, '/api');
    const fromAlpha = await book(alphaApi, 'Alma Alpha', '10:00');
    const fromHome = await book(bff.api, 'Hugo Home', '10:00');

    expect(BffStatusResponse.parse(await (await lookUp(alphaApi, fromAlpha)).json()).data.name).toBe('Alma Alpha');
    await expectError(await lookUp(betaApi, fromAlpha), 404, 'not_found');
    await expectError(await lookUp(siteUrl(site.twin, '/api'), fromAlpha), 404, 'not_found');
    await expectError(await lookUp(bff.api, fromAlpha), 404, 'not_found');
    await expectError(await lookUp(alphaApi, fromHome), 404, 'not_found');
    expect(BffStatusResponse.parse(await (await lookUp(bff.api, fromHome)).json()).data.name).toBe('Hugo Home');
  });

  it("never crosses two sites' requests interleaved under random upstream delays", async () => {
    const alphaApi = siteUrl(site.alpha, '/api');
    const betaApi = siteUrl(site.beta, '/api');
    const booked = [
      { api: alphaApi, name: 'Ada Alpha', reference: await book(alphaApi, 'Ada Alpha', '11:00') },
      { api: betaApi, name: 'Ben Beta', reference: await book(betaApi, 'Ben Beta', '11:00') },
      { api: alphaApi, name: 'Ann Alpha', reference: await book(alphaApi, 'Ann Alpha', '11:30') },
      { api: betaApi, name: 'Bea Beta', reference: await book(betaApi, 'Bea Beta', '11:30') },
    ];
    const rounds = Array.from({ length: 6 }, () => booked).flat();
    const names = await Promise.all(
      rounds.map(async ({ api, reference }) => BffStatusResponse.parse(await (await lookUp(api, reference)).json()).data.name),
    );
    expect(names).toEqual(rounds.map(({ name }) => name));
  });

  it('refuses lookalike origins: no CORS header for them, the exact and the subdomain ones allowed', async () => {
    const allowOrigin = async (id: string, origin: string) =>
      (await fetch(siteUrl(id, '/api/treatments'), { headers: { origin } })).headers.get('access-control-allow-origin');

    expect(await allowOrigin(site.alpha, 'https://alpha.example')).toBe('https://alpha.example');
    expect(await allowOrigin(site.alpha, 'https://www.smile.example')).toBe('https://www.smile.example');
    expect(await allowOrigin(site.alpha, 'https://a.b.smile.example')).toBe('https://a.b.smile.example');
    for (const lookalike of [
      'https://evil-alpha.example',
      'https://alpha.example.evil.net',
      'https://evilsmile.example',
      'https://smile.example',
      'https://smile.example.evil.net',
      'http://www.smile.example',
      'https://www.smile.example:8443',
      'https://alpha.example/',
      'null',
      'https://beta.example',
    ]) {
      expect(await allowOrigin(site.alpha, lookalike), lookalike).toBeNull();
    }
    expect(await allowOrigin(site.beta, 'https://alpha.example')).toBeNull();
  });

  it('answers an unknown or malformed site id 404, a suspended site 403 site_suspended', async () => {
    const unknown = `cbs_${'a'.repeat(26)}`;
    await expectError(await fetch(siteUrl(unknown, '/api/treatments')), 404, 'not_found');
    await expectError(await fetch(siteUrl('not-a-site', '/api/treatments')), 404, 'not_found');
    await expectError(await fetch(siteUrl(unknown, '/widget/clinic-booking.js')), 404, 'not_found');
    await expectError(await fetch(siteUrl(site.suspended, '/api/treatments')), 403, 'site_suspended');
  });

  it("lets a suspended site's pages read its 403: CORS for its origins, a preflight answered", async () => {
    const refused = await fetch(siteUrl(site.suspended, '/api/treatments'), { headers: { origin: 'https://paused.example' } });
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://paused.example');
    await expectError(refused, 403, 'site_suspended');
    const preflight = await fetch(siteUrl(site.suspended, '/api/appointments/book'), {
      method: 'OPTIONS',
      headers: { origin: 'https://paused.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    const stranger = await fetch(siteUrl(site.suspended, '/api/treatments'), { headers: { origin: 'https://alpha.example' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("serves the widget's own files under a site, a suspended one's too (so it can say booking is unavailable)", async () => {
    for (const id of [site.alpha, site.suspended]) {
      const res = await fetch(siteUrl(id, '/widget/clinic-booking.js'));
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(LOADER);
    }
  });

  it("counts per-IP limits per site and IP, with the site's own limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(siteUrl(site.limited, '/api/treatments'))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await fetch(siteUrl(site.beta, '/api/treatments'))).status).toBe(200);
  });

  it("keeps every site's content in one store, each entry its site's, dropped with the site", async () => {
    await fetch(siteUrl(site.alpha, '/api/dentists'));
    await fetch(siteUrl(site.beta, '/api/dentists'));
    expect(bff.contentStore.countOf(site.alpha)).toBeGreaterThan(0);
    const betaEntries = bff.contentStore.countOf(site.beta);

    bff.siteRegistry!.drop(site.alpha);

    expect(bff.contentStore.countOf(site.alpha)).toBe(0);
    expect(bff.contentStore.countOf(site.beta)).toBe(betaEntries);
    expect(await (await fetch(siteUrl(site.alpha, '/api/organization'))).text()).toContain('Alpha Dental');
  });

  it('writes the site on every log line of its requests, `default` on the env clinic\'s, and no secret anywhere', async () => {
    // A site's status lookup by path (the deprecated GET): its reference stays out of the log as /api's does.
    const reference = await book(siteUrl(site.alpha, '/api'), 'Lia Log', '12:00');
    expect((await fetch(siteUrl(site.alpha, `/api/appointments/status/${reference}`))).status).toBe(200);
    expect(bff.logs.join('\n')).not.toContain(reference);
    const lines = bff.logs.map((line) => JSON.parse(line) as { site?: string; req?: { path?: string } });
    const requestLines = lines.filter((line) => line.req?.path);
    expect(requestLines.length).toBeGreaterThan(0);
    for (const line of requestLines) {
      const path = line.req!.path!;
      const mount = /^\/s\/([^/]+)\//.exec(path)?.[1];
      if (mount && Object.values(site).includes(mount)) expect(line.site, path).toBe(mount);
      else if (path.startsWith('/api/') || path.startsWith('/widget/')) expect(line.site, path).toBe('default');
    }
    const logged = bff.logs.join('\n');
    for (const clinic of Object.values(clinics)) expect(logged).not.toContain(clinic.secret);
    for (const name of ['Alma Alpha', 'Ada Alpha', 'Ben Beta', 'Lia Log']) expect(logged).not.toContain(name);
    const answered = await (await fetch(siteUrl(site.alpha, '/api/docs'))).text();
    for (const clinic of Object.values(clinics)) {
      expect(answered).not.toContain(clinic.secret);
      expect(answered).not.toContain(clinic.appKey);
    }
  });
});
