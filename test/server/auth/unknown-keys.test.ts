import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeyStore } from '../../../server/auth/key.store.js';
import { SecretHasher } from '../../../server/auth/secret-hash.js';
import { SEED_SECRET_COST } from '../support/seed-secret-cost.js';
import { seedClinic } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { exchangeFrom, type ExchangeAnswer } from '../support/exchange-from.js';

const FAILED = 3;
/** Attempts on one key from one IP: the failures the limit lets through, then two past it. */
const ATTEMPTS = FAILED + 2;
const UNKNOWN_KEY = 'ck_0123456789abcdef0123456789abcdef';

/**
 * POST /granttoken tells nothing of whether an app key exists: a real key
 * with wrong secrets, a revoked key and a key never issued get the same
 * answers at every attempt, lockout included, and run the same scrypt work.
 * Each kind of key is tried from a client IP of its own, so that their
 * counts never meet.
 */
describe('POST /granttoken for a real key, a revoked key and an unknown key', () => {
  const hasher = new SecretHasher(SEED_SECRET_COST);
  const ctx = useTestServer({
    secretHasher: hasher,
    tokenFailureRateLimit: { limit: FAILED, windowMs: 600_000 },
    setup: async (server) => {
      const real = await seedClinic(server);
      const revoked = await seedClinic(server);
      await new KeyStore(server.db).revoke(revoked.appKey, server.clock.now());
      return { real, revoked };
    },
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /**
   * The three tries, each from its own IP (127.0.0.`first` and the next two):
   * a wrong secret, a revoked key's right secret, a key never issued.
   */
  const tries = (first: number) => [
    { kind: 'a real key, a wrong secret', from: `127.0.0.${first}`, appKey: ctx.real.appKey, secret: 'cs_wrong' },
    { kind: 'a revoked key, its own secret', from: `127.0.0.${first + 1}`, appKey: ctx.revoked.appKey, secret: ctx.revoked.secret },
    { kind: 'a key never issued', from: `127.0.0.${first + 2}`, appKey: UNKNOWN_KEY, secret: 'cs_wrong' },
  ];

  /**
   * What a client can compare: status, body and every header but those that
   * differ per request (Date, X-Request-Id) and the partition keys of
   * RateLimit-Policy (a hash of the asking IP and the key as sent, never of
   * whether it exists).
   */
  const comparable = ({ status, text, headers }: ExchangeAnswer) => {
    const { date: _date, 'x-request-id': _id, 'ratelimit-policy': policy, ...rest } = headers;
    return { status, text, headers: { ...rest, 'ratelimit-policy': String(policy).replace(/pk=:[^:]*:/g, 'pk=:…:') } };
  };

  it('answers each attempt byte for byte alike, 401 auth_failed up to the limit and 429 rate_limited after', async () => {
    // Frozen, so that Retry-After and RateLimit's seconds are the same for attempts made a moment apart.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const answers = new Map<string, ReturnType<typeof comparable>[]>();

    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      for (const { kind, from, appKey, secret } of tries(50)) {
        answers.set(kind, [...(answers.get(kind) ?? []), comparable(await exchangeFrom(ctx.server, from, appKey, secret))]);
      }
    }

    const [real, revoked, unknown] = [...answers.values()];
    expect(revoked).toEqual(real);
    expect(unknown).toEqual(real);
    expect(real?.map(({ status }) => status)).toEqual([401, 401, 401, 429, 429]);
    expect(JSON.parse(real![0]!.text)).toEqual({ success: false, message: 'Invalid API key or secret', error_code: 'auth_failed' });
    expect(JSON.parse(real![FAILED]!.text)).toEqual({
      success: false,
      message: 'Too many failed token exchanges; retry after the number of seconds in Retry-After',
      error_code: 'rate_limited',
    });
    expect(real![FAILED]!.headers['retry-after']).toBe('600');
  });

  it('checks every refused attempt with one scrypt derivation at the same cost, and none once the limit is reached', async () => {
    const verify = vi.spyOn(hasher, 'verify');
    const work = new Map<string, string[]>();

    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      for (const { kind, from, appKey, secret } of tries(60)) {
        verify.mockClear();
        await exchangeFrom(ctx.server, from, appKey, secret);
        // The cost each check ran at, as the hash it was checked against names it: scrypt$N$r$p$salt$hash.
        const costs = verify.mock.calls.map(([, storedHash]) => storedHash.split('$').slice(1, 4).join('$'));
        work.set(kind, [...(work.get(kind) ?? []), costs.join(' ') || 'none']);
      }
    }

    const seedCost = `${SEED_SECRET_COST.N}$${SEED_SECRET_COST.r}$${SEED_SECRET_COST.p}`;
    for (const kind of work.keys()) expect(work.get(kind), kind).toEqual([seedCost, seedCost, seedCost, 'none', 'none']);
  });
});
