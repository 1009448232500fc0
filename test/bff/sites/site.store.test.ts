import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { SiteSecretError, SiteSecrets } from '../../../bff/sites/site-secrets.js';
import { SiteStore } from '../../../bff/sites/site.store.js';
import { SiteFile } from '../../../bff/sites/site.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { siteFile } from './support/site-file.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from './support/sites-test-database.js';

const NOW = new Date('2026-11-25T10:00:00.000Z');
const LATER = new Date('2026-11-25T11:00:00.000Z');

describe.each(ENGINES)('the site store on %s', (engine) => {
  let testDb: SitesTestDatabase;
  let opened: SitesDatabase[] = [];

  const open = async () => {
    const database = await openSitesDatabase(testDb.url);
    opened.push(database);
    return database;
  };
  const storeWith = async (secrets?: SiteSecrets) => new SiteStore((await open()).db, secrets);

  afterEach(async () => {
    for (const database of opened) await database.close();
    opened = [];
    await testDb.remove();
  });

  const fresh = async () => {
    testDb = await sitesTestDatabase(engine);
  };

  it('creates an active site and gives it back, its secret only through credentials()', async () => {
    await fresh();
    const store = await storeWith(new SiteSecrets(randomBytes(32)));

    const siteId = await store.create(SiteFile.parse(siteFile()), NOW);

    expect(await store.get(siteId)).toEqual({
      site_id: siteId,
      name: 'Smile Dental',
      upstream_url: 'https://api.vendor.example/api/v1',
      app_key: 'ck_00112233445566778899aabbccddeeff',
      allowed_origins: ['https://smile.example', 'https://*.smile.example'],
      time_zone: 'Europe/London',
      booking_rules: { min_notice_minutes: 120, horizon_days: 365, default_duration_minutes: 30 },
      notifications: { language: 'en' },
      change_rules: {},
      mail: { own_relay: false },
      status: 'active',
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    expect(await store.credentials(siteId)).toEqual({ app_key: 'ck_00112233445566778899aabbccddeeff', app_secret_key: siteFile().app_secret_key });
    expect(await store.list()).toHaveLength(1);
  });

  it('opens the database again without migrating twice', async () => {
    await fresh();
    const store = await storeWith(new SiteSecrets(randomBytes(32)));
    const siteId = await store.create(SiteFile.parse(siteFile()), NOW);

    const again = await storeWith();

    expect((await again.get(siteId))?.name).toBe('Smile Dental');
  });

  it('changes origins, key pair and status of one site only, and says undefined for an unknown site', async () => {
    await fresh();
    const key = randomBytes(32);
    const store = await storeWith(new SiteSecrets(key));
    const [one, other] = [await store.create(SiteFile.parse(siteFile()), NOW), await store.create(SiteFile.parse(siteFile()), NOW)];

    expect((await store.setOrigins(one, ['https://new.example'], LATER))?.allowed_origins).toEqual(['https://new.example']);
    await store.rotateSecret(one, { app_key: 'ck_new', app_secret_key: 'SECRET-new' }, LATER);
    expect((await store.setStatus(one, 'suspended', LATER))?.status).toBe('suspended');

    expect(await store.get(one)).toMatchObject({ app_key: 'ck_new', status: 'suspended', created_at: NOW.toISOString(), updated_at: LATER.toISOString() });
    expect(await store.credentials(one)).toEqual({ app_key: 'ck_new', app_secret_key: 'SECRET-new' });
    expect(await store.get(other)).toMatchObject({ app_key: siteFile().app_key, status: 'active', allowed_origins: siteFile().allowed_origins });
    expect(await store.setStatus('cbs_unknown', 'active', LATER)).toBeUndefined();
    expect(await store.delete(one)).toBe(true);
    expect(await store.delete(one)).toBe(false);
    expect((await store.list()).map((site) => site.site_id)).toEqual([other]);
  });

  it("refuses a sealed secret moved into another site's row", async () => {
    await fresh();
    const store = await storeWith(new SiteSecrets(randomBytes(32)));
    const victim = await store.create(SiteFile.parse(siteFile()), NOW);
    const attacker = await store.create(SiteFile.parse(siteFile({ app_secret_key: 'SECRET-attacker' })), NOW);
    const { db } = opened[0]!;

    await sql`update sites set app_secret_sealed = (select app_secret_sealed from sites where site_id = ${victim}) where site_id = ${attacker}`.execute(db);

    await expect(store.credentials(attacker)).rejects.toThrow(SiteSecretError);
    expect((await store.credentials(victim))?.app_secret_key).toBe(siteFile().app_secret_key);
  });

  it('seals every site again under a new key: with PREVIOUS during the rotation, without it after', async () => {
    await fresh();
    const [older, newer] = [randomBytes(32), randomBytes(32)];
    const before = await storeWith(new SiteSecrets(older));
    const ids = [await before.create(SiteFile.parse(siteFile()), NOW), await before.create(SiteFile.parse(siteFile({ app_secret_key: 'SECRET-two' })), NOW)];

    const rotating = await storeWith(new SiteSecrets(newer, older));
    expect((await rotating.credentials(ids[1]!))?.app_secret_key).toBe('SECRET-two');
    expect(await rotating.reencryptAll(LATER)).toBe(2);

    const after = await storeWith(new SiteSecrets(newer));
    expect((await after.credentials(ids[0]!))?.app_secret_key).toBe(siteFile().app_secret_key);
    expect((await after.credentials(ids[1]!))?.app_secret_key).toBe('SECRET-two');
    await expect((await storeWith(new SiteSecrets(older))).credentials(ids[0]!)).rejects.toThrow(SiteSecretError);
  });

  it('changes nothing when one secret cannot be opened during reencrypt', async () => {
    await fresh();
    const [older, stranger, newer] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const first = await (await storeWith(new SiteSecrets(older))).create(SiteFile.parse(siteFile()), NOW);
    // Created later, so reencrypt (oldest first) has sealed the first site again before it meets this one.
    await (await storeWith(new SiteSecrets(stranger))).create(SiteFile.parse(siteFile()), LATER);
    const { db } = opened[0]!;
    const sealedBefore = await db.selectFrom('sites').select(['site_id', 'app_secret_sealed', 'updated_at']).orderBy('site_id').execute();

    await expect((await storeWith(new SiteSecrets(newer, older))).reencryptAll(new Date('2026-11-25T12:00:00.000Z'))).rejects.toThrow(SiteSecretError);

    expect(await db.selectFrom('sites').select(['site_id', 'app_secret_sealed', 'updated_at']).orderBy('site_id').execute()).toEqual(sealedBefore);
    expect((await (await storeWith(new SiteSecrets(older))).credentials(first))?.app_secret_key).toBe(siteFile().app_secret_key);
  });

  it('refuses to seal without SITE_SECRETS_KEY, and writes nothing', async () => {
    await fresh();
    const store = await storeWith();

    await expect(store.create(SiteFile.parse(siteFile()), NOW)).rejects.toThrow('SITE_SECRETS_KEY is not set');
    expect(await store.list()).toEqual([]);
  });

  it.runIf(engine === 'sqlite')('never writes the secret in plain text to the database file or its WAL', async () => {
    await fresh();
    const store = await storeWith(new SiteSecrets(randomBytes(32)));
    const siteId = await store.create(SiteFile.parse(siteFile()), NOW);
    await store.rotateSecret(siteId, { app_key: 'ck_two', app_secret_key: 'SECRET-rotated-5e8d' }, LATER);
    // Both secrets are readable back, so they are in the database, sealed.
    expect((await store.credentials(siteId))?.app_secret_key).toBe('SECRET-rotated-5e8d');

    const bytes = [testDb.file!, `${testDb.file!}-wal`].filter(existsSync).map((path) => readFileSync(path));
    expect(bytes.length).toBeGreaterThan(0);
    for (const content of bytes) {
      expect(content.includes(siteFile().app_secret_key)).toBe(false);
      expect(content.includes('SECRET-rotated-5e8d')).toBe(false);
      // The row is there: its app key is in the same bytes.
    }
    expect(Buffer.concat(bytes).includes('ck_two')).toBe(true);
  });
});
