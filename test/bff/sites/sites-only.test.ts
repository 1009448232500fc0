import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteFile } from '../../../bff/sites/site.js';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { openSitesDatabase } from '../../../bff/sites/sites-database.js';
import { removeDb, seedClinic, startTestServer, type TestServer } from '../../server/support/test-server.js';
import { entryPointArgs } from '../../support/entry-point.js';
import { expectError } from '../../support/expect-error.js';
import { bffClinicFixture } from '../support/bff-harness.js';

const CLINIC_NAME = 'Agency Smile Dental';

/**
 * An agency's BFF, started as docs/sites.md ("A BFF of sites only") says: the
 * sites' database, SITE_SECRETS_KEY and BOOKING_REF_SECRET, and no clinic of
 * its own (no UPSTREAM_URL, APP_KEY or APP_SECRET_KEY). A real process: what
 * is checked is that it starts at all, which only its config and main.ts decide.
 */
describe('a BFF of sites only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bff-sites-only-'));
  const secretsKey = randomBytes(32);
  let upstream: TestServer;
  let siteId: string;
  let bff: ChildProcess;
  let output = '';
  let base: string;

  beforeAll(async () => {
    upstream = await startTestServer();
    const fixture = bffClinicFixture();
    const clinic = await seedClinic(upstream, { ...fixture, organization: { ...fixture.organization, name: CLINIC_NAME } });
    const databaseUrl = `file:${join(dir, 'bff.db')}`;
    const sites = await openSitesDatabase(databaseUrl);
    try {
      const file = SiteFile.parse({ name: CLINIC_NAME, upstream_url: upstream.api, app_key: clinic.appKey, app_secret_key: clinic.secret, time_zone: 'Europe/London' });
      siteId = await new SiteStore(sites.db, new SiteSecrets(secretsKey)).create(file, upstream.clock.now());
    } finally {
      await sites.close();
    }

    // Only the settings the docs name (no .env: its folder has none), on a port of its own.
    bff = spawn(process.execPath, entryPointArgs('bff/main.ts'), {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: databaseUrl,
        SITE_SECRETS_KEY: secretsKey.toString('base64'),
        BOOKING_REF_SECRET: randomBytes(32).toString('base64'),
        PUBLIC_ORIGIN: 'https://book.agency.example',
        PORT: '0',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    bff.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    bff.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const port = await new Promise<string>((resolve, reject) => {
      const found = () => /listening on http:\/\/[^/]+:(\d+)\//.exec(output)?.[1];
      bff.stdout!.on('data', () => found() && resolve(found()!));
      bff.once('exit', (code) => reject(new Error(`the BFF exited (${code}) during start-up:\n${output}`)));
    });
    base = `http://127.0.0.1:${port}`;
  }, 60_000);

  afterAll(async () => {
    if (bff?.exitCode === null) {
      const exited = new Promise((resolve) => bff.once('exit', resolve));
      bff.kill('SIGTERM');
      await exited;
    }
    await upstream?.close();
    if (upstream) removeDb(upstream.dbPath);
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves its site's content at /s/{site_id}/api", async () => {
    const res = await fetch(`${base}/s/${siteId}/api/content`);

    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { organization: { name: string } } };
    expect(body.data.organization.name).toBe(CLINIC_NAME);
  });

  it.each([
    ['/api/content', '/s/{site_id}/api'],
    ['/api/appointments/book', '/s/{site_id}/api'],
    ['/widget/clinic-booking.js', '/s/{site_id}/widget'],
  ])('answers %s with 404 in the error body, naming where its sites are', async (path, where) => {
    const res = await fetch(`${base}${path}`, path.endsWith('/book') ? { method: 'POST' } : undefined);

    await expectError(res, 404, 'not_found', 'serves only its sites', where);
  });

  it('is ready, with no upstream of its own to ask', async () => {
    const res = await fetch(`${base}/readyz`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready' });
  });
});
