import { describe, expect, it } from 'vitest';
import { CliError, parseCommand } from '../../../server/cli/commands.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { authenticatedCaller, grantToken, INVALID_TOKEN, seedClinic, type SeededClinic } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import type { ApiKeyPair } from '../../../server/auth/auth.service.js';
import type { ApiKeySummary } from '../../../server/auth/key.store.js';
import { AccessTokenResponse } from '../../../contract/index.js';

/**
 * The clinic settings area's "API Access" (spec 5.1) as the `clinic keys`
 * commands do it, run in this process against the test server's database
 * (test/server/cli runs the same commands as processes).
 */
const clock = new FakeClock(TEST_NOW);
const ctx = useTestServer({ clock, setup: async (server) => ({ clinic: await seedClinic(server), other: await seedClinic(server) }) });

const clinic = (...argv: string[]) => parseCommand(argv)({ database: { kysely: ctx.server.db, engine: ctx.server.database.engine }, clock, publicUrl: 'http://127.0.0.1:1', retentionDays: 365 });

const keysOf = async (careId: number) => (await clinic('keys', 'list', '--clinic', String(careId))) as ApiKeySummary[];
const exchange = (pair: ApiKeyPair) =>
  fetch(`${ctx.server.api}/granttoken`, { method: 'POST', headers: { 'x-app-key': pair.app_key, 'x-app-secret-key': pair.app_secret_key } });

describe('clinic keys create', () => {
  it('answers a key ck_ + 128 bits in hex and a secret cs_ + 256 bits in base64url, which exchange for a token', async () => {
    const pair = (await clinic('keys', 'create', '--clinic', String(ctx.clinic.careId))) as ApiKeyPair;

    expect(pair.app_key).toMatch(/^ck_[0-9a-f]{32}$/);
    expect(pair.app_secret_key).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    const res = await exchange(pair);
    expect(res.status).toBe(200);
    expect(AccessTokenResponse.parse(await res.json()).access_token).toEqual(expect.any(String));
  });
});

describe('clinic keys list', () => {
  it('lists the clinic’s keys oldest first, with when each was created and revoked, and no other clinic’s', async () => {
    const firstCreatedAt = clock.now().toISOString();
    const { careId, appKey: first } = await seedClinic(ctx.server);
    clock.advance(60_000);
    const secondCreatedAt = clock.now().toISOString();
    const second = (await clinic('keys', 'create', '--clinic', String(careId))) as ApiKeyPair;
    clock.advance(60_000);
    await clinic('keys', 'revoke', '--key', first);

    const keys = await keysOf(careId);

    expect(keys).toEqual([
      { app_key: first, created_at: firstCreatedAt, revoked_at: clock.now().toISOString() },
      { app_key: second.app_key, created_at: secondCreatedAt, revoked_at: null },
    ]);
    expect(keys.map((key) => key.app_key)).not.toContain(ctx.other.appKey);
  });
});

describe('clinic keys revoke', () => {
  it('stops the tokens of that key only: another key of the same clinic keeps working', async () => {
    const careId = ctx.clinic.careId;
    const kept = (await clinic('keys', 'create', '--clinic', String(careId))) as ApiKeyPair;
    const revoked = (await clinic('keys', 'create', '--clinic', String(careId))) as ApiKeyPair;
    const keptCaller = await authenticatedCaller(ctx.server, { careId, appKey: kept.app_key, secret: kept.app_secret_key });
    const revokedCaller = await authenticatedCaller(ctx.server, { careId, appKey: revoked.app_key, secret: revoked.app_secret_key });

    expect(await clinic('keys', 'revoke', '--key', revoked.app_key)).toEqual({ revoked: revoked.app_key });

    const refused = await revokedCaller.get('/dentists');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual(INVALID_TOKEN);
    expect((await keptCaller.get('/dentists')).status).toBe(200);
  });

  it('refuses a key revoked already, naming it, and keeps the time it was first revoked', async () => {
    const careId = (await seedClinic(ctx.server)).careId;
    const [key] = await keysOf(careId);
    await clinic('keys', 'revoke', '--key', key!.app_key);
    const revokedAt = (await keysOf(careId))[0]!.revoked_at;
    clock.advance(60_000);

    const again = clinic('keys', 'revoke', '--key', key!.app_key);

    await expect(again).rejects.toThrow(CliError);
    await expect(again).rejects.toThrow(key!.app_key);
    expect((await keysOf(careId))[0]!.revoked_at).toBe(revokedAt);
  });
});

describe('a token past its hour', () => {
  it('is deleted from the database by the next exchange, while a live one stays', async () => {
    const seeded: SeededClinic = await seedClinic(ctx.server);
    await grantToken(ctx.server, seeded);
    clock.advance(3600_000);
    await grantToken(ctx.server, seeded);

    const rows = await ctx.server.db.selectFrom('access_tokens').select('expires_at').where('app_key', '=', seeded.appKey).execute();

    expect(rows.map((row) => Number(row.expires_at))).toEqual([clock.now().getTime() + 3600_000]);
  });
});
