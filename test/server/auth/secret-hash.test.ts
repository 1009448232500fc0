import { randomBytes, scrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuthService } from '../../../server/auth/auth.service.js';
import { KeyStore } from '../../../server/auth/key.store.js';
import { SECRET_HASH_COST } from '../../../server/auth/secret-hash.js';
import { TokenStore } from '../../../server/auth/token.store.js';
import { INVALID_KEY_OR_SECRET, seedClinic } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { AccessTokenResponse } from '../../../contract/index.js';

/**
 * POST /granttoken checks the secret against the scrypt hash stored for the
 * key, `scrypt$N$r$p$salt$hash`, whatever cost it was made at; a stored hash
 * that is not of that form never matches, even for the right secret, and
 * never turns the answer into a 500.
 */
const ctx = useTestServer({ setup: async (server) => ({ clinic: await seedClinic(server) }) });

const SECRET = 'cs_the-right-secret-for-this-test';

function scryptHash(secret: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, 32, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` for SECRET, each part as given or computed. */
async function storedHash({ scheme = 'scrypt', N = 2 ** 15, r = 8, p = 1, salt = randomBytes(32) } = {}): Promise<string[]> {
  const hash = await scryptHash(SECRET, salt, N, r, p);
  return [scheme, String(N), String(r), String(p), salt.toString('base64url'), hash.toString('base64url')];
}

let keyCount = 0;

/** A key of the test clinic whose stored hash is `secretHash`; answers the exchange for it with SECRET. */
async function exchangeWithStoredHash(secretHash: string): Promise<Response> {
  const appKey = `ck_stored_${keyCount++}`;
  await new KeyStore(ctx.server.db).insert(ctx.clinic.careId, appKey, secretHash, ctx.server.clock.now());
  return fetch(`${ctx.server.api}/granttoken`, { method: 'POST', headers: { 'x-app-key': appKey, 'x-app-secret-key': SECRET } });
}

describe('POST /granttoken against the stored hash of a key', () => {
  it('accepts the right secret for a hash of the stored form (the control for the cases below)', async () => {
    const res = await exchangeWithStoredHash((await storedHash()).join('$'));

    expect(res.status).toBe(200);
    expect(AccessTokenResponse.parse(await res.json()).access_token).toEqual(expect.any(String));
  });

  // Raising the cost later must not lock out the keys issued before; here a hash made at four times today's.
  it('reads the cost from the hash, so a key hashed at a higher cost than today’s still works', async () => {
    const res = await exchangeWithStoredHash((await storedHash({ N: 2 ** 17 })).join('$'));

    expect(res.status).toBe(200);
    expect(AccessTokenResponse.parse(await res.json()).access_token).toEqual(expect.any(String));
  });

  // The memory scrypt may use follows the hash's own N and r: a small N, and a large r (block size).
  it.each([
    ['N = 2^10, r = 1', { N: 2 ** 10, r: 1 }],
    ['N = 2^10, r = 32', { N: 2 ** 10, r: 32 }],
  ])('accepts the right secret for a hash made with %s', async (_case, cost) => {
    const res = await exchangeWithStoredHash((await storedHash(cost)).join('$'));

    expect(res.status).toBe(200);
  });

  it.each([
    ['another scheme', async () => (await storedHash({ scheme: 'bcrypt' })).join('$')],
    ['no hash part', async () => (await storedHash()).slice(0, 5).join('$')],
    ['no salt or hash part', async () => (await storedHash()).slice(0, 4).join('$')],
    ['no p, salt or hash part', async () => (await storedHash()).slice(0, 3).join('$')],
    ['no r, p, salt or hash part', async () => (await storedHash()).slice(0, 2).join('$')],
    ['the scheme alone', async () => 'scrypt'],
    ['an empty salt', async () => (await storedHash({ salt: Buffer.alloc(0) })).join('$')],
    ['a hash cut to 16 bytes', async () => {
      const parts = await storedHash();
      return [...parts.slice(0, 5), Buffer.from(parts[5]!, 'base64url').subarray(0, 16).toString('base64url')].join('$');
    }],
  ])('answers 401 invalid_key, never 200 or 500, for a stored hash with %s', async (_case, secretHash) => {
    const res = await exchangeWithStoredHash(await secretHash());

    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(INVALID_KEY_OR_SECRET);
  });
});

describe('the cost the server hashes new secrets at', () => {
  // Tests seed their keys cheaper (test/server/support/seed-secret-cost.ts); the server's own keys never are.
  it('is N=2^15, r=8, p=1 for a key the server makes (AuthService without a cost, as the server and its CLI build it)', async () => {
    const auth = new AuthService(new KeyStore(ctx.server.db), new TokenStore(ctx.server.db), ctx.server.clock);

    const { app_key } = await auth.createKeyPair(ctx.clinic.careId);

    const key = await ctx.server.db.selectFrom('api_keys').select('secret_hash').where('app_key', '=', app_key).executeTakeFirstOrThrow();
    expect(key.secret_hash.split('$').slice(0, 4)).toEqual(['scrypt', String(2 ** 15), '8', '1']);
    expect(SECRET_HASH_COST).toEqual({ N: 2 ** 15, r: 8, p: 1 });
  });
});
