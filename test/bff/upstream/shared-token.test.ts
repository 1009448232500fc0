import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { RedisLink } from '../../../platform/redis-link.js';
import { TokenManager, type TokenManagerOptions } from '../../../bff/upstream/token-manager.js';
import { startBff, startStubUpstream, type StubHandler } from '../support/bff-harness.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';
import { freePort } from '../../support/free-port.js';
import { eventually } from '../../support/eventually.js';
import { HeldCalls } from '../support/held-calls.js';

const SITE = { appKey: 'ck_shared_token_key', appSecretKey: 'shared-token-secret-0123456789' };
/** Far above any exchange with a stub on a busy machine: these tests time out nothing. */
const EXCHANGE_TIMEOUT_MS = 5_000;
/** What SharedTokenStore gives a lock: the exchange's timeout and a second. */
const LOCK_TTL_MS = EXCHANGE_TIMEOUT_MS + 1000;
/** The lock a holder left when it died: one that took it with a short timeout, so the test waits little for its end. */
const DEAD_LOCK_TTL_MS = 300;

/**
 * Grants stub-token-1, -2, …, each exchange held until the test lets it go
 * when `calls` is given, and `onExchange` told of it first; every other call
 * answers 200 with the token it was given accepted only if it is the latest
 * granted, 401 otherwise.
 */
function grantingUpstream({ calls, onExchange }: { calls?: HeldCalls; onExchange?: () => Promise<void> } = {}) {
  let issued = 0;
  const handler: StubHandler = async (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/v1/granttoken') {
      const answered = calls ? await calls.hold('exchange') : () => undefined;
      await onExchange?.();
      issued += 1;
      res.end(JSON.stringify({ access_token: `stub-token-${issued}-0123456789abcdef`, expires_in: 3600 }));
      answered();
      return;
    }
    const latest = req.headers.authorization === `Bearer stub-token-${issued}-0123456789abcdef`;
    res.statusCode = latest ? 200 : 401;
    res.end(JSON.stringify(latest ? { success: true, data: [] } : { success: false, message: 'Unauthorized', error_code: 'auth_failed' }));
  };
  return handler;
}

describe.runIf(serviceAvailable('redis'))('one upstream token for every instance of a site, through Redis', () => {
  const prefix = testKeyPrefix('shared-token');
  const links: RedisLink[] = [];
  const redis = inspector();

  afterAll(async () => {
    const look = await redis;
    await look.cleanUp(prefix);
    await look.close();
    await Promise.all(links.map((link) => link.close()));
  });

  /** One more instance: its own Redis connection, same prefix. */
  async function instance(upstreamUrl: string, options: Partial<TokenManagerOptions> = {}): Promise<TokenManager> {
    const link = await openLink(prefix);
    links.push(link);
    return new TokenManager({ upstreamUrl, ...SITE, timeoutMs: EXCHANGE_TIMEOUT_MS, maxBodyBytes: 64 * 1024, shared: link, ...options });
  }

  const exchangesAt = (stub: Awaited<ReturnType<typeof startStubUpstream>>) => stub.requests.filter((req) => req.url === '/api/v1/granttoken').length;

  it('two instances starting cold at once do one exchange between them, and Redis never holds the token or the app key', async () => {
    const calls = new HeldCalls();
    const stub = await startStubUpstream(grantingUpstream({ calls }));
    const [a, b] = [await instance(stub.api), await instance(stub.api)];

    const tokens = Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).get()));
    // One exchange held at upstream: the instance that took the lock waits on it, the other polls Redis meanwhile.
    await eventually(() => expect(calls.held('exchange')).toBe(1));
    calls.release('exchange');

    expect(new Set(await tokens)).toEqual(new Set(['stub-token-1-0123456789abcdef']));
    expect(exchangesAt(stub)).toBe(1);
    const look = await redis;
    const keys = await look.keys(prefix);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).not.toContain(SITE.appKey);
      expect(await look.get(key)).not.toContain('stub-token');
    }
  });

  it('a lock holder that died holds the others no longer than the lock lives', async () => {
    const look = await redis;
    let lockKey = '';
    /** The lock as the exchange found it, and how long it had left. */
    let atExchange: { holder: string | null; ttlMs: number } | undefined;
    const stub = await startStubUpstream(
      grantingUpstream({ onExchange: async () => void (atExchange = { holder: await look.get(lockKey), ttlMs: await look.pttl(lockKey) }) }),
    );
    const namespace = createHash('sha256').update(`${stub.api}\n${SITE.appKey}`).digest('hex').slice(0, 32);
    lockKey = `${prefix}bff:token:${namespace}:lock`;
    const dead = await openLink(prefix);
    links.push(dead);
    // What a holder leaves when it dies mid-exchange: its lock, with the TTL it took it with.
    await dead.send(['SET', lockKey, 'a-holder-that-died', 'PX', String(DEAD_LOCK_TTL_MS)]);

    const manager = await instance(stub.api);
    const token = await manager.get();

    expect(token).toBe('stub-token-1-0123456789abcdef');
    expect(exchangesAt(stub)).toBe(1);
    // It exchanged under a lock of its own, taken once the dead one had expired: not beside it, nor lockless after
    // giving up; and its own lies in Redis no longer than the TTL, so its own death would hold the others no longer.
    expect(atExchange?.holder).toMatch(/^[0-9a-f]{32}$/);
    expect(atExchange?.ttlMs).toBeGreaterThan(0);
    expect(atExchange?.ttlMs).toBeLessThanOrEqual(LOCK_TTL_MS);
    expect(await look.get(lockKey)).toBeNull();
  });

  it('a token upstream refused is dropped for both instances, and replaced by one exchange', async () => {
    const stub = await startStubUpstream(grantingUpstream());
    const [a, b] = [await instance(stub.api), await instance(stub.api)];
    const first = await a.get();
    expect(await b.get()).toBe(first);
    expect(exchangesAt(stub)).toBe(1);

    // Revoked upstream: a meets the 401 first, then b.
    a.invalidate(first);
    const second = await a.get();
    expect(second).not.toBe(first);
    b.invalidate(first);
    expect(await b.get()).toBe(second);
    expect(exchangesAt(stub)).toBe(2);

    // A newcomer adopts what Redis holds; its own refusal removes it there and brings one exchange.
    const c = await instance(stub.api);
    expect(await c.get()).toBe(second);
    c.invalidate(second);
    const third = await c.get();
    expect(third).not.toBe(second);
    expect(exchangesAt(stub)).toBe(3);
  });

  it('two real BFFs of one clinic on one Redis make one exchange for their cold requests', async () => {
    const calls = new HeldCalls();
    const stub = await startStubUpstream(grantingUpstream({ calls }));
    const [linkA, linkB] = [await openLink(prefix), await openLink(prefix)];
    links.push(linkA, linkB);
    const credentials = { appKey: 'ck_two_bffs_key', secret: 'two-bffs-secret-0123456789' };
    const bffs = [await startBff(stub.api, credentials, {}, undefined, linkA), await startBff(stub.api, credentials, {}, undefined, linkB)];

    const answered = Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(`${bffs[i % 2]!.api}/treatments`);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    // One exchange held at upstream while both BFFs' requests wait for a token.
    await eventually(() => expect(calls.held('exchange')).toBe(1));
    calls.release('exchange');
    const answers = await answered;

    expect(answers.every((status) => status === 200)).toBe(true);
    expect(exchangesAt(stub)).toBe(1);
  });

  it('exchanges alone while Redis is unreachable', async () => {
    const stub = await startStubUpstream(grantingUpstream());
    const unreachable = await openLink(prefix, undefined, `redis://127.0.0.1:${await freePort()}`);
    links.push(unreachable);
    const manager = new TokenManager({ upstreamUrl: stub.api, ...SITE, timeoutMs: EXCHANGE_TIMEOUT_MS, maxBodyBytes: 64 * 1024, shared: unreachable });

    expect(await manager.get()).toBe('stub-token-1-0123456789abcdef');
    expect(exchangesAt(stub)).toBe(1);
  });
});
