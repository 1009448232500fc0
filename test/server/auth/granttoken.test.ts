import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AccessTokenResponse } from '../../../contract/index.js';
import { MAX_LIVE_TOKENS_PER_KEY } from '../../../server/auth/auth.service.js';
import { KeyStore } from '../../../server/auth/key.store.js';
import { hashToken } from '../../../server/auth/credentials.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import {
  INVALID_KEY_OR_SECRET,
  INVALID_TOKEN,
  MISSING_APP_KEY,
  MISSING_KEY_OR_SECRET,
  MISSING_TOKEN,
  authenticatedCaller,
  grantToken,
  seedClinic,
  type TestServer,
} from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

const exchange = (server: TestServer, headers: Record<string, string>) =>
  fetch(`${server.api}/granttoken`, { method: 'POST', headers });

describe('POST /granttoken', () => {
  const clock = new FakeClock(TEST_NOW);
  const ctx = useTestServer({ clock, setup: async (server) => ({ clinic: await seedClinic(server) }) });

  it('answers exactly {access_token, expires_in: 3600} for a valid key and secret', async () => {
    const res = await exchange(ctx.server, { 'x-app-key': ctx.clinic.appKey, 'x-app-secret-key': ctx.clinic.secret });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AccessTokenResponse;
    expect(AccessTokenResponse.parse(body)).toEqual(body);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in']);
    expect(body.expires_in).toBe(3600);
    expect(Buffer.from(body.access_token, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    // An unknown key reads exactly like a wrong secret: the answer never tells whether a key exists.
    ['a wrong secret', () => ({ 'x-app-key': ctx.clinic.appKey, 'x-app-secret-key': `${ctx.clinic.secret}x` }), INVALID_KEY_OR_SECRET],
    ['an unknown key', () => ({ 'x-app-key': 'ck_unknown', 'x-app-secret-key': ctx.clinic.secret }), INVALID_KEY_OR_SECRET],
    ['a 10 kB secret', () => ({ 'x-app-key': ctx.clinic.appKey, 'x-app-secret-key': 'x'.repeat(10_000) }), INVALID_KEY_OR_SECRET],
    ['no secret', () => ({ 'x-app-key': ctx.clinic.appKey }), MISSING_KEY_OR_SECRET],
    ['no headers at all', () => ({}), MISSING_KEY_OR_SECRET],
  ])('answers 401 auth_failed for %s, saying what is wrong', async (_name, headers, body) => {
    const res = await exchange(ctx.server, headers());
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(body);
  });

  it('stores the secret only as a scrypt hash and the token only as its SHA-256', async () => {
    const token = await grantToken(ctx.server, ctx.clinic);
    const key = await ctx.server.db.selectFrom('api_keys').selectAll().where('app_key', '=', ctx.clinic.appKey).executeTakeFirstOrThrow();
    expect(key.secret_hash).toMatch(/^scrypt\$/);
    expect(key.secret_hash).not.toContain(ctx.clinic.secret);
    const tokens = await ctx.server.db.selectFrom('access_tokens').select('token_hash').execute();
    // The stored form is fixed (base64url of the SHA-256): tokens already issued must keep matching.
    const sha256 = createHash('sha256').update(token).digest('base64url');
    expect(hashToken(token)).toBe(sha256);
    expect(tokens.map((t) => t.token_hash)).toContain(sha256);
    expect(tokens.map((t) => t.token_hash)).not.toContain(token);
  });
});

describe('authenticated requests', () => {
  const clock = new FakeClock(TEST_NOW);
  const ctx = useTestServer({
    clock,
    setup: async (server) => ({ clinic: await seedClinic(server), other: await seedClinic(server) }),
  });

  const getDentists = (headers: Record<string, string>) => fetch(`${ctx.server.api}/dentists`, { headers });

  it('accept x-app-key with a Bearer token issued to that key', async () => {
    const caller = await authenticatedCaller(ctx.server, ctx.clinic);
    expect((await caller.get('/dentists')).status).toBe(200);
  });

  it.each([
    ['bearer', 'lower case'],
    ['BEARER', 'upper case'],
    ['Bearer  ', 'more than one space'],
  ])('accept the scheme written %s (%s): schemes are case-insensitive (RFC 9110)', async (scheme) => {
    const token = await grantToken(ctx.server, ctx.clinic);
    const res = await getDentists({ 'x-app-key': ctx.clinic.appKey, authorization: `${scheme} ${token}` });
    expect(res.status).toBe(200);
  });

  it.each([
    ['no credentials', async () => ({}), MISSING_TOKEN],
    ['x-app-key but no token', async () => ({ 'x-app-key': ctx.clinic.appKey }), MISSING_TOKEN],
    ['a Basic scheme', async () => ({ 'x-app-key': ctx.clinic.appKey, authorization: `Basic ${await grantToken(ctx.server, ctx.clinic)}` }), MISSING_TOKEN],
    ['a token but no x-app-key', async () => ({ authorization: `Bearer ${await grantToken(ctx.server, ctx.clinic)}` }), MISSING_APP_KEY],
    ['a made-up token', async () => ({ 'x-app-key': ctx.clinic.appKey, authorization: `Bearer ${'A'.repeat(43)}` }), INVALID_TOKEN],
    ['a malformed token', async () => ({ 'x-app-key': ctx.clinic.appKey, authorization: 'Bearer !!!' }), INVALID_TOKEN],
    ['the secret sent as the token', async () => ({ 'x-app-key': ctx.clinic.appKey, authorization: `Bearer ${ctx.clinic.secret}` }), INVALID_TOKEN],
    // A real token with another key, and with a key that does not exist, read alike.
    ['a token of another key', async () => ({ 'x-app-key': ctx.clinic.appKey, authorization: `Bearer ${await grantToken(ctx.server, ctx.other)}` }), INVALID_TOKEN],
    ['a token with an unknown key', async () => ({ 'x-app-key': 'ck_unknown', authorization: `Bearer ${await grantToken(ctx.server, ctx.clinic)}` }), INVALID_TOKEN],
  ])('answer 401 auth_failed for %s, saying what is wrong', async (_name, headers, body) => {
    const res = await getDentists(await headers());
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(body);
  });

  it('answer 401 once the token is an hour old, and 200 a second before', async () => {
    const caller = await authenticatedCaller(ctx.server, ctx.clinic);
    clock.advance(3600_000 - 1000);
    expect((await getDentists(caller.headers)).status).toBe(200);
    clock.advance(1000);
    const res = await getDentists(caller.headers);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(INVALID_TOKEN);
  });

  it('answer 401 for every token of a key once it is revoked, and refuse new tokens', async () => {
    const revokable = await seedClinic(ctx.server);
    const caller = await authenticatedCaller(ctx.server, revokable);
    expect((await getDentists(caller.headers)).status).toBe(200);

    await new KeyStore(ctx.server.db).revoke(revokable.appKey, clock.now());

    const refused = await getDentists(caller.headers);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual(INVALID_TOKEN);
    const res = await exchange(ctx.server, { 'x-app-key': revokable.appKey, 'x-app-secret-key': revokable.secret });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(INVALID_KEY_OR_SECRET);
  });
});

describe('live tokens per app key', () => {
  const clock = new FakeClock(TEST_NOW);
  const ctx = useTestServer({ clock, setup: async (server) => ({ clinic: await seedClinic(server), other: await seedClinic(server) }) });
  const dentists = (clinic: { appKey: string }, token: string) =>
    fetch(`${ctx.server.api}/dentists`, { headers: { 'x-app-key': clinic.appKey, authorization: `Bearer ${token}` } });

  it(`are at most ${MAX_LIVE_TOKENS_PER_KEY}: ${MAX_LIVE_TOKENS_PER_KEY + 5} grants revoke the oldest 5, and another key keeps its own`, async () => {
    const othersToken = await grantToken(ctx.server, ctx.other);
    const tokens: string[] = [];
    for (let i = 0; i < MAX_LIVE_TOKENS_PER_KEY + 5; i++) {
      tokens.push(await grantToken(ctx.server, ctx.clinic));
      clock.advance(1000);
    }

    const statuses = [];
    for (const token of tokens) statuses.push((await dentists(ctx.clinic, token)).status);

    expect(statuses).toEqual([...Array<number>(5).fill(401), ...Array<number>(MAX_LIVE_TOKENS_PER_KEY).fill(200)]);
    expect((await dentists(ctx.clinic, tokens[0]!)).status).toBe(401);
    expect(await (await dentists(ctx.clinic, tokens[0]!)).json()).toEqual(INVALID_TOKEN);
    expect((await dentists(ctx.other, othersToken)).status).toBe(200);
    const stored = await ctx.server.db.selectFrom('access_tokens').select('token_hash').where('app_key', '=', ctx.clinic.appKey).execute();
    expect(stored).toHaveLength(MAX_LIVE_TOKENS_PER_KEY);
  });
});

describe('the API rate limit', () => {
  const ctx = useTestServer({ apiRateLimit: { limit: 5, windowMs: 60_000 } });

  it('answers 429 once one app key has spent its budget, while another key is unaffected', async () => {
    const busy = await authenticatedCaller(ctx.server, await seedClinic(ctx.server));
    const quiet = await authenticatedCaller(ctx.server, await seedClinic(ctx.server));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await busy.get('/dentists')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);

    const limited = await busy.get('/treatments');

    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ success: false, error_code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit')).toMatch(/r=0/);
    expect((await quiet.get('/dentists')).status).toBe(200);
  });
});
