import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import type { SiteView } from '../../../bff/sites/site.js';
import { openSitesDatabase } from '../../../bff/sites/sites-database.js';
import { auditLines, printed, refusal, sitesCli, sitesCliProcess, type CliResult } from './support/sites-cli.js';
import { siteFile } from './support/site-file.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

const NEW_SECRET = 'SECRET-rotated-c41d9e';

/** Upstream URLs on an address inside a network, as `sites create` names them: the URL, its host, the address refused. */
const upstreamsInsideANetwork: [string, string, string][] = [
  ['http://169.254.169.254/latest/api/v1', '169.254.169.254', '169.254.169.254'],
  ['http://127.0.0.1:4000/api/v1', '127.0.0.1:4000', '127.0.0.1'],
  ['http://2130706433:4000/api/v1', '127.0.0.1:4000', '127.0.0.1'],
  ['http://[::ffff:a9fe:a9fe]/api/v1', '[::ffff:a9fe:a9fe]', '::ffff:a9fe:a9fe'],
  ['http://[::1]:4000/api/v1', '[::1]:4000', '::1'],
  ['https://10.0.0.5/api/v1', '10.0.0.5', '10.0.0.5'],
  ['https://192.168.1.20:8443/api/v1', '192.168.1.20:8443', '192.168.1.20'],
  ['http://100.64.0.1/api/v1', '100.64.0.1', '100.64.0.1'],
  ['http://[fd00::5]/api/v1', '[fd00::5]', 'fd00::5'],
];
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Each command runs in this process (support/sites-cli.ts); the last suite runs the real process.
describe.each(ENGINES)('npm run bff -- sites, on %s', { timeout: 90_000 }, (engine) => {
  let testDb: SitesTestDatabase;
  let folder: string;
  const key = randomBytes(32).toString('base64');
  /** Every byte the CLI wrote in this suite, to search for secrets at the end. */
  const outputs: CliResult[] = [];
  const cli = async (args: string[], input = '', env: Record<string, string> = {}) => {
    const result = await sitesCli(args, { DATABASE_URL: testDb.url, SITE_SECRETS_KEY: key, ...env }, input);
    outputs.push(result);
    return result;
  };
  const writeFile = (name: string, content: string) => {
    const path = join(folder, name);
    writeFileSync(path, content);
    return path;
  };

  beforeAll(async () => {
    testDb = await sitesTestDatabase(engine);
    folder = mkdtempSync(join(tmpdir(), 'bff-sites-cli-'));
  });
  afterAll(async () => {
    await testDb.remove();
    rmSync(folder, { recursive: true, force: true });
  });

  /** A site of the test's own, created through the CLI: no test depends on what another did to its site. */
  const createdSite = async (): Promise<string> =>
    printed<{ site_id: string }>(await cli(['sites', 'create', '--file', writeFile('site.json', JSON.stringify(siteFile()))])).site_id;
  const rotate = (siteId: string) =>
    cli(['sites', 'rotate-secret', '--site', siteId], JSON.stringify({ app_key: 'ck_rotated_1234', app_secret_key: NEW_SECRET }));

  it('creates a site from a file and prints its id, with one audit line', async () => {
    const result = await cli(['sites', 'create', '--file', writeFile('site.json', JSON.stringify(siteFile()))]);

    const { site_id: siteId } = printed<{ site_id: string }>(result);
    expect(siteId).toMatch(/^cbs_[a-z2-7]{26}$/);
    expect(auditLines(result)).toEqual([{ audit: 'site.created', site_id: siteId, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
  });

  it('shows and lists it without its secret, and only the start of its app key', async () => {
    const siteId = await createdSite();

    const shown = printed<SiteView>(await cli(['sites', 'show', '--site', siteId]));

    expect(shown).toMatchObject({ site_id: siteId, name: 'Smile Dental', status: 'active', app_key_hint: 'ck_001…' });
    expect(shown).not.toHaveProperty('app_key');
    expect(printed<SiteView[]>(await cli(['sites', 'list'])).filter((site) => site.site_id === siteId)).toEqual([shown]);
  });

  it('replaces its origins, in canonical form', async () => {
    const siteId = await createdSite();

    const result = await cli(['sites', 'set-origins', '--site', siteId, '--origins', 'https://Smile.example, https://*.smile.example']);

    expect(printed<SiteView>(result).allowed_origins).toEqual(['https://smile.example', 'https://*.smile.example']);
    expect(auditLines(result)).toMatchObject([{ audit: 'site.origins_set', site_id: siteId }]);
  });

  it('rotates its key pair from standard input', async () => {
    const siteId = await createdSite();

    const result = await rotate(siteId);

    expect(printed<SiteView>(result).app_key_hint).toBe('ck_rot…');
    expect(auditLines(result)).toMatchObject([{ audit: 'site.secret_rotated', site_id: siteId }]);
    const database = await openSitesDatabase(testDb.url);
    try {
      expect(await new SiteStore(database.db, new SiteSecrets(Buffer.from(key, 'base64'))).credentials(siteId)).toEqual({
        app_key: 'ck_rotated_1234',
        app_secret_key: NEW_SECRET,
      });
    } finally {
      await database.close();
    }
  });

  it('suspends and resumes it', async () => {
    const siteId = await createdSite();

    const suspended = await cli(['sites', 'suspend', '--site', siteId]);
    expect(printed<SiteView>(suspended).status).toBe('suspended');
    expect(auditLines(suspended)).toMatchObject([{ audit: 'site.suspended', site_id: siteId }]);

    const resumed = await cli(['sites', 'resume', '--site', siteId]);
    expect(printed<SiteView>(resumed).status).toBe('active');
    expect(auditLines(resumed)).toMatchObject([{ audit: 'site.resumed', site_id: siteId }]);
  });

  it('seals every secret again under a new key: with PREVIOUS, then without it', async () => {
    // A database of its own: every site in it is sealed again, and the others go on under the suite's key.
    const own = await sitesTestDatabase(engine);
    try {
      const ownCli = (args: string[], input: string, env: Record<string, string>) => cli(args, input, { DATABASE_URL: own.url, ...env });
      const { site_id: siteId } = printed<{ site_id: string }>(
        await ownCli(['sites', 'create', '--file', writeFile('site.json', JSON.stringify(siteFile()))], '', {}),
      );
      printed(await ownCli(['sites', 'rotate-secret', '--site', siteId], JSON.stringify({ app_key: 'ck_rotated_1234', app_secret_key: NEW_SECRET }), {}));
      const newKey = randomBytes(32).toString('base64');

      const result = await ownCli(['sites', 'reencrypt'], '', { SITE_SECRETS_KEY: newKey, SITE_SECRETS_KEY_PREVIOUS: key });

      expect(printed(result)).toEqual({ reencrypted: 1 });
      expect(auditLines(result)).toMatchObject([{ audit: 'sites.reencrypted', sites: 1 }]);
      const database = await openSitesDatabase(own.url);
      try {
        expect((await new SiteStore(database.db, new SiteSecrets(Buffer.from(newKey, 'base64'))).credentials(siteId))?.app_secret_key).toBe(NEW_SECRET);
      } finally {
        await database.close();
      }
      // The old key alone no longer opens it: one line, exit 2, the secret not in it.
      expect(refusal(await ownCli(['sites', 'reencrypt'], '', {}))).toMatch(/does not open with SITE_SECRETS_KEY/);
    } finally {
      await own.remove();
    }
  });

  it('refuses an unknown site with one line and exit code 2', async () => {
    expect(refusal(await cli(['sites', 'suspend', '--site', 'cbs_aaaaaaaaaaaaaaaaaaaaaaaaaa']))).toBe('bff: unknown site: "cbs_aaaaaaaaaaaaaaaaaaaaaaaaaa"');
  });

  it('deletes it', async () => {
    const siteId = await createdSite();

    const result = await cli(['sites', 'delete', '--site', siteId]);

    expect(printed(result)).toEqual({ site_id: siteId, deleted: true });
    expect(auditLines(result)).toMatchObject([{ audit: 'site.deleted', site_id: siteId }]);
    expect(refusal(await cli(['sites', 'show', '--site', siteId]))).toMatch(/unknown site/);
    expect(printed<SiteView[]>(await cli(['sites', 'list'])).map((site) => site.site_id)).not.toContain(siteId);
  });

  it('never prints a secret, on stdout or stderr, through a site\'s whole life', async () => {
    const from = outputs.length;
    const siteId = await createdSite();
    for (const args of [['sites', 'show', '--site', siteId], ['sites', 'list'], ['sites', 'suspend', '--site', siteId], ['sites', 'resume', '--site', siteId]]) {
      printed(await cli(args));
    }
    printed(await rotate(siteId));
    printed(await cli(['sites', 'show', '--site', siteId]));
    printed(await cli(['sites', 'delete', '--site', siteId]));

    expect(outputs.length - from).toBe(8);
    for (const { stdout, stderr } of outputs.slice(from)) {
      for (const secret of [siteFile().app_secret_key, NEW_SECRET]) {
        expect(stdout).not.toContain(secret);
        expect(stderr).not.toContain(secret);
      }
    }
  });

  it.runIf(engine === 'sqlite')('left no secret in the database file or its WAL', async () => {
    printed(await rotate(await createdSite()));
    await createdSite();

    const bytes = Buffer.concat([testDb.file!, `${testDb.file!}-wal`].filter(existsSync).map((path) => readFileSync(path)));
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.includes(siteFile().app_secret_key)).toBe(false);
    expect(bytes.includes(NEW_SECRET)).toBe(false);
  });
});

describe('npm run bff -- sites, given bad input', { timeout: 90_000 }, () => {
  let testDb: SitesTestDatabase;
  let folder: string;
  const key = randomBytes(32).toString('base64');
  const cli = (args: string[], input = '', env: Record<string, string> = {}) =>
    sitesCli(args, { DATABASE_URL: testDb.url, SITE_SECRETS_KEY: key, ...env }, input);
  const writeFile = (name: string, content: string) => {
    const path = join(folder, name);
    writeFileSync(path, content);
    return path;
  };

  beforeAll(async () => {
    testDb = await sitesTestDatabase('sqlite');
    folder = join(testDb.file!, '..');
  });
  afterAll(() => testDb.remove());

  it.each<[string, () => string[], RegExp]>([
    ['a file that is not there', () => ['sites', 'create', '--file', join(folder, 'missing.json')], /^bff: cannot read .*missing\.json: ENOENT$/],
    ['a file that is not JSON', () => ['sites', 'create', '--file', writeFile('bad.json', '{"name": SECRET-x')], /^bff: .*bad\.json is not valid JSON$/],
    ['a missing field', () => ['sites', 'create', '--file', writeFile('no-zone.json', JSON.stringify({ ...siteFile(), time_zone: undefined }))], /^bff: invalid site file: time_zone /],
    ['a malformed origin', () => ['sites', 'create', '--file', writeFile('origin.json', JSON.stringify(siteFile({ allowed_origins: ['https://*.com'] })))], /allowed_origins\.0 origin "https:\/\/\*\.com" a wildcard needs at least two labels/],
    ['an unknown field', () => ['sites', 'create', '--file', writeFile('extra.json', JSON.stringify({ ...siteFile(), colour: 'red' }))], /colour is not a known field/],
    ['no --file', () => ['sites', 'create'], /^bff: --file is required$/],
    ['an unknown command', () => ['sites', 'frob'], /^bff: unknown command: sites frob/],
    ['an unknown option', () => ['sites', 'list', '--verbose'], /^bff: Unknown option '--verbose'/],
    ...upstreamsInsideANetwork.map(([url, host, address]): [string, () => string[], RegExp] => [
      `an upstream_url of ${url}`,
      () => ['sites', 'create', '--file', writeFile('inside.json', JSON.stringify(siteFile({ upstream_url: url })))],
      new RegExp(`^bff: upstream_url ${escaped(host)} is at ${escaped(address)}, which is not public; list ${escaped(host)} in OUTBOUND_ALLOWLIST to allow it$`),
    ]),
    ['a per-site limit of 10^12 a millisecond', () => ['sites', 'create', '--file', writeFile('limits.json', JSON.stringify(siteFile({ limits: { api: { limit: 1e12, window_ms: 1 } } })))], /^bff: invalid site file: limits\.api\.limit .*10000.*limits\.api\.window_ms .*1000/],
    ['a per-site window of a year', () => ['sites', 'create', '--file', writeFile('window.json', JSON.stringify(siteFile({ limits: { booking: { limit: 5, window_ms: 365 * 86_400_000 } } })))], /^bff: invalid site file: limits\.booking\.window_ms .*86400000/],
  ])('refuses %s with one line and exit code 2', async (_case, args, message) => {
    expect(refusal(await cli(args()))).toMatch(message);
  });

  it('creates nothing when it refuses a site file', async () => {
    const before = printed<SiteView[]>(await cli(['sites', 'list']));

    refusal(await cli(['sites', 'create', '--file', writeFile('origin.json', JSON.stringify(siteFile({ allowed_origins: ['https://*.com'] })))]));
    refusal(await cli(['sites', 'create', '--file', writeFile('inside.json', JSON.stringify(siteFile({ upstream_url: 'http://127.0.0.1:4000/api/v1' })))]));

    expect(printed(await cli(['sites', 'list']))).toEqual(before);
  });

  it('creates a site on an internal upstream that OUTBOUND_ALLOWLIST names, by host and port or by range, and no other', async () => {
    const create = (upstream: string, allowlist: string) =>
      cli(['sites', 'create', '--file', writeFile('allowed.json', JSON.stringify(siteFile({ upstream_url: upstream })))], '', { OUTBOUND_ALLOWLIST: allowlist });

    const before = new Set(printed<SiteView[]>(await cli(['sites', 'list'])).map((site) => site.site_id));

    const byHost = printed<{ site_id: string }>(await create('http://127.0.0.1:4000/api/v1', '127.0.0.1:4000'));
    const byRange = printed<{ site_id: string }>(await create('http://10.20.0.5/api/v1', '10.20.0.0/16'));
    expect(refusal(await create('http://127.0.0.1:4001/api/v1', '127.0.0.1:4000'))).toMatch(/^bff: upstream_url 127\.0\.0\.1:4001 is at 127\.0\.0\.1/);
    expect(refusal(await create('http://169.254.169.254/api/v1', '10.0.0.0/8'))).toMatch(/^bff: upstream_url 169\.254\.169\.254 is at 169\.254\.169\.254/);

    const created = printed<SiteView[]>(await cli(['sites', 'list'])).filter((site) => !before.has(site.site_id));
    expect(created.map((site) => [site.site_id, site.upstream_url])).toEqual([
      [byHost.site_id, 'http://127.0.0.1:4000/api/v1'],
      [byRange.site_id, 'http://10.20.0.5/api/v1'],
    ]);
  });

  it('refuses a malformed origin in set-origins and keeps the ones it had', async () => {
    const { site_id: siteId } = printed<{ site_id: string }>(await cli(['sites', 'create', '--file', writeFile('ok.json', JSON.stringify(siteFile()))]));

    expect(refusal(await cli(['sites', 'set-origins', '--site', siteId, '--origins', 'https://ok.example,https://smile.example/path']))).toMatch(
      /^bff: --origins: origin "https:\/\/smile\.example\/path" must be an origin/,
    );
    expect(printed<SiteView>(await cli(['sites', 'show', '--site', siteId])).allowed_origins).toEqual(siteFile().allowed_origins);
  });

  it('refuses a key pair on standard input that is not JSON without repeating it', async () => {
    const { site_id: siteId } = printed<{ site_id: string }>(await cli(['sites', 'create', '--file', writeFile('stdin.json', JSON.stringify(siteFile()))]));

    const line = refusal(await cli(['sites', 'rotate-secret', '--site', siteId], '{"app_key": "k", "app_secret_key": SECRET-leak}'));

    expect(line).toBe('bff: standard input is not valid JSON');
    expect(refusal(await cli(['sites', 'rotate-secret', '--site', siteId], '{"app_key": "k"}'))).toMatch(/app_secret_key/);
  });

  it('refuses a SITE_SECRETS_KEY of the wrong length in one line, without its value', async () => {
    const short = randomBytes(16).toString('base64');

    const line = refusal(await cli(['sites', 'list'], '', { SITE_SECRETS_KEY: short }));

    expect(line).toBe('bff: Invalid BFF configuration: SITE_SECRETS_KEY (must be 32 bytes in base64, e.g. `openssl rand -base64 32`)');
    expect(line).not.toContain(short);
  });

  it('refuses to create a site without SITE_SECRETS_KEY', async () => {
    const before = printed<SiteView[]>(await sitesCli(['sites', 'list'], { DATABASE_URL: testDb.url }));

    const line = refusal(await sitesCli(['sites', 'create', '--file', writeFile('ok2.json', JSON.stringify(siteFile()))], { DATABASE_URL: testDb.url }));

    expect(line).toMatch(/SITE_SECRETS_KEY is not set/);
    expect(printed<SiteView[]>(await sitesCli(['sites', 'list'], { DATABASE_URL: testDb.url }))).toEqual(before);
  });
});

describe('the bff process (main.ts wires runSitesCli to stdin, stdout, stderr and the exit code)', { timeout: 90_000 }, () => {
  let testDb: SitesTestDatabase;
  const key = randomBytes(32).toString('base64');
  const env = () => ({ DATABASE_URL: testDb.url, SITE_SECRETS_KEY: key });

  beforeAll(async () => {
    testDb = await sitesTestDatabase('sqlite');
  });
  afterAll(() => testDb.remove());

  it('refuses an unknown command with one line and exit code 2', async () => {
    expect(refusal(await sitesCliProcess(['sites', 'frob'], env()))).toMatch(/^bff: unknown command: sites frob/);
  });

  it('rotates a key pair read from its standard input, with JSON on stdout and an audit line on stderr', async () => {
    const folder = join(testDb.file!, '..');
    const file = join(folder, 'process.json');
    writeFileSync(file, JSON.stringify(siteFile()));
    const { site_id: siteId } = printed<{ site_id: string }>(await sitesCli(['sites', 'create', '--file', file], env()));

    const result = await sitesCliProcess(['sites', 'rotate-secret', '--site', siteId], env(), JSON.stringify({ app_key: 'ck_process', app_secret_key: NEW_SECRET }));

    expect(printed<SiteView>(result)).toMatchObject({ site_id: siteId });
    expect(auditLines(result)).toEqual([{ audit: 'site.secret_rotated', site_id: siteId, at: expect.any(String) }]);
    expect(result.stdout + result.stderr).not.toContain(NEW_SECRET);
  });
});
