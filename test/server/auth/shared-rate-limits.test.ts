import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../../server/app.js';
import { loadServerConfig } from '../../../server/config.js';
import type { Database } from '../../../server/db/database.js';
import { ClinicStore } from '../../../server/clinics/clinic.store.js';
import { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { AuthService } from '../../../server/auth/auth.service.js';
import { KeyStore } from '../../../server/auth/key.store.js';
import { TokenStore } from '../../../server/auth/token.store.js';
import { silentLogger } from '../../support/silent-logger.js';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { createTestDatabase, openTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';
import { eventually } from '../../support/eventually.js';
import { expectError } from '../../support/expect-error.js';

describe('the Redis settings of the server', () => {
  it('keeps counts in memory when REDIS_URL is unset, under clinic-booking: when it is set', () => {
    expect(loadServerConfig({}).redisUrl).toBeUndefined();
    const config = loadServerConfig({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.redisKeyPrefix).toBe('clinic-booking:');
  });

  it('refuses a REDIS_URL that is not redis:// or rediss://, naming it and never printing it', () => {
    const attempt = () => loadServerConfig({ REDIS_URL: 'http://user:pa55word@cache:6379' });
    expect(attempt).toThrow('REDIS_URL');
    expect(attempt).not.toThrow('pa55word');
  });
});

/**
 * Two server instances in this process, each with its own connection to the
 * shared Redis (as two processes would have), on one database: the per-key API
 * budget and the /granttoken budgets are each one count across both.
 */
describe.runIf(serviceAvailable('redis'))(`rate limits shared through Redis (REDIS_URL), on ${TEST_ENGINE}`, () => {
  const clock = new FakeClock(TEST_NOW);
  let database: TestDatabase;
  let opened: Database;
  let clinic: { appKey: string; secret: string; token: string };
  let redis: Awaited<ReturnType<typeof inspector>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    opened = await openTestDatabase(database.url);
    const db = opened.kysely;
    const careId = await new ClinicStore(db).create(ClinicFile.parse(clinicFixture()), clock.now());
    const auth = new AuthService(new KeyStore(db), new TokenStore(db), clock);
    const keys = await auth.createKeyPair(careId);
    // A token issued without HTTP, so the /granttoken budget starts untouched.
    const { access_token } = await auth.grantToken(keys.app_key, keys.app_secret_key);
    clinic = { appKey: keys.app_key, secret: keys.app_secret_key, token: access_token };
    redis = await inspector();
  });
  afterAll(async () => {
    await redis.close();
    await opened.kysely.destroy();
    await database.remove();
  });

  async function startInstance(shared: Database, link: RedisLink): Promise<Instance> {
    const app = createApp({
      database: shared,
      clock,
      logger: silentLogger(),
      redis: link,
      config: {
        trustProxy: false,
        apiRateLimit: { limit: 4, windowMs: 60_000 },
        tokenRateLimit: { limit: 3, windowMs: 60_000 },
        tokenFailureRateLimit: { limit: 2, windowMs: 60_000 },
      },
    });
    const server: Server = await new Promise((resolve) => {
      const listening = createHttpServer(app).listen(0, '127.0.0.1', () => resolve(listening));
    });
    return { server, api: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1` };
  }

  /** Two instances on a Redis key prefix of the test's own, so no count another test made reaches them; closed when it ends. */
  async function twoInstances() {
    const prefix = testKeyPrefix('server-shared-limits');
    const links = [await openLink(prefix), await openLink(prefix)];
    const [a, b] = (await Promise.all(links.map((link) => startInstance(opened, link)))) as [Instance, Instance];
    onTestFinished(async () => {
      await Promise.all([a, b].map(({ server }) => close(server)));
      await Promise.all(links.map((link) => link.close()));
      await redis.cleanUp(prefix);
    });
    return { a, b, prefix };
  }

  const exchange = (api: string, secret: string) =>
    fetch(`${api}/granttoken`, { method: 'POST', headers: { 'x-app-key': clinic.appKey, 'x-app-secret-key': secret } });

  it('counts failed exchanges per IP and key across instances: the third wrong secret, on either, is 429', async () => {
    const { a, b } = await twoInstances();
    // A key of no clinic: its failures stop that key from this IP, not the clinic's key.
    const guess = (api: string) => fetch(`${api}/granttoken`, { method: 'POST', headers: { 'x-app-key': 'ck_none', 'x-app-secret-key': 'cs_wrong' } });
    await expectError(await guess(a.api), 401, 'auth_failed');
    await expectError(await guess(b.api), 401, 'auth_failed');

    const refused = await guess(a.api);

    await expectError(refused, 429, 'rate_limited');
    expect(refused.headers.get('ratelimit')).toMatch(/"granttoken-failed"; r=0/);
  });

  it('counts tokens issued per IP across instances: 2 on one and 1 on the other spend a budget of 3', async () => {
    const { a, b, prefix } = await twoInstances();
    expect((await exchange(a.api, clinic.secret)).status).toBe(200);
    expect((await exchange(b.api, clinic.secret)).status).toBe(200);
    expect((await exchange(a.api, clinic.secret)).status).toBe(200);

    const refused = await exchange(b.api, clinic.secret);

    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ success: false, error_code: 'rate_limited' });
    expect(refused.headers.get('ratelimit-policy')).toMatch(/^"granttoken"; q=3/);
    expect((await exchange(a.api, clinic.secret)).status).toBe(429);
    // Three tokens issued; each refusal was counted, then given back once answered.
    await eventually(async () => expect(await redis.get(`${prefix}server:rl:granttoken:127.0.0.1`)).toBe('3'));
  });

  it('counts each app key across instances: the fifth request, on either, is 429 with Retry-After', async () => {
    const get = (api: string) => fetch(`${api}/dentists`, { headers: { 'x-app-key': clinic.appKey, authorization: `Bearer ${clinic.token}` } });
    const { a, b, prefix } = await twoInstances();
    const statuses = [await get(a.api), await get(b.api), await get(a.api), await get(b.api)].map((res) => res.status);
    expect(statuses).toEqual([200, 200, 200, 200]);

    const onA = await get(a.api);
    const onB = await get(b.api);

    await expectError(onA, 429, 'rate_limited');
    await expectError(onB, 429, 'rate_limited');
    expect(Number(onB.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await redis.get(`${prefix}server:rl:api:${clinic.appKey}`)).toBe('6');
  });
});

interface Instance {
  api: string;
  server: Server;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
