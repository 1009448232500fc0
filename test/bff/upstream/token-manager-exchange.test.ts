import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TokenManager } from '../../../bff/upstream/token-manager.js';
import { toUpstreamUnavailable } from '../../../bff/upstream/upstream-fetch.js';
import { UpstreamBusy, UpstreamUnavailable } from '../../../bff/upstream/errors.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { startStubUpstream, type StubHandler } from '../support/bff-harness.js';

/**
 * The token manager on its own, against a stub /granttoken and a clock moved
 * by hand: when it exchanges, when it reuses, how it backs off, and what each
 * failure becomes. token-manager.test.ts shows the same through the BFF.
 */

/** UPSTREAM_MAX_BODY_BYTES's default. */
const MiB = 1024 * 1024;
let clock: FakeClock;
let issued: number;

const exchanges = () => stub.requests.filter((req) => req.url === '/api/v1/granttoken');

/** Grants stub-token-1, -2, … with this lifetime. */
const granting = (expiresIn: number): StubHandler => (_req, res) => {
  issued += 1;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ access_token: `stub-token-${issued}-0123456789abcdef`, expires_in: expiresIn }));
};

const answering = (status: number, headers: Record<string, string> = {}): StubHandler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ success: false, message: 'no', error_code: 'internal_error' }));
};

const manager = (options: { renewBeforeMs?: number; maxBodyBytes?: number } = {}) =>
  new TokenManager({ upstreamUrl: stub.api, appKey: 'ck_unit', appSecretKey: 'unit-secret-0123456789', timeoutMs: 2_000, maxBodyBytes: MiB, clock, ...options });

/** What get() rejects with. */
async function failureOf(tokens: TokenManager): Promise<unknown> {
  return tokens.get().then(
    (token) => expect.fail(`expected a failure, got the token ${token}`),
    (error: unknown) => error,
  );
}

const stub = await startStubUpstream();
beforeEach(() => {
  stub.requests.length = 0;
  issued = 0;
  clock = new FakeClock(TEST_NOW);
  stub.handle(granting(3600));
});

describe('TokenManager.get', () => {
  it('exchanges the key and secret by POST /granttoken and answers the token', async () => {
    const token = await manager().get();

    expect(token).toBe('stub-token-1-0123456789abcdef');
    expect(exchanges()).toHaveLength(1);
    expect(exchanges()[0]).toMatchObject({ method: 'POST', headers: { 'x-app-key': 'ck_unit', 'x-app-secret-key': 'unit-secret-0123456789' } });
  });

  it('makes one exchange for many concurrent callers', async () => {
    const tokens = manager();

    const answers = await Promise.all(Array.from({ length: 5 }, () => tokens.get()));

    expect(new Set(answers)).toEqual(new Set(['stub-token-1-0123456789abcdef']));
    expect(exchanges()).toHaveLength(1);
  });

  it('reuses the token until 60 s before it expires, then exchanges once for a new one', async () => {
    const tokens = manager();
    await tokens.get();

    clock.advance((3600 - 60) * 1000 - 1);
    expect(await tokens.get()).toBe('stub-token-1-0123456789abcdef');
    clock.advance(1);
    expect(await tokens.get()).toBe('stub-token-2-0123456789abcdef');
    expect(await tokens.get()).toBe('stub-token-2-0123456789abcdef');
    expect(exchanges()).toHaveLength(2);
  });

  it('renews a short-lived token at half its lifetime, when that comes later than the margin before expiry', async () => {
    stub.handle(granting(100));
    const tokens = manager();
    await tokens.get();

    clock.advance(50_000 - 1);
    expect(await tokens.get()).toBe('stub-token-1-0123456789abcdef');
    clock.advance(1);
    expect(await tokens.get()).toBe('stub-token-2-0123456789abcdef');
  });

  it('renews the given margin before expiry', async () => {
    const tokens = manager({ renewBeforeMs: 600_000 });
    await tokens.get();

    clock.advance(3000 * 1000 - 1);
    expect(await tokens.get()).toBe('stub-token-1-0123456789abcdef');
    clock.advance(1);
    expect(await tokens.get()).toBe('stub-token-2-0123456789abcdef');
  });

  it('refuses an answer with an expires_in that is not positive, as an unexpected body', async () => {
    stub.handle(granting(0));

    const error = await failureOf(manager());

    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(error).toMatchObject({ reason: 'server_error' });
  });

  it('refuses an answer larger than maxBodyBytes', async () => {
    const error = await failureOf(manager({ maxBodyBytes: 16 }));

    expect(error).toMatchObject({ reason: 'too_large' });
  });
});

describe('TokenManager.invalidate', () => {
  it('drops the token upstream refused, so the next get exchanges', async () => {
    const tokens = manager();
    const refused = await tokens.get();

    tokens.invalidate(refused);

    expect(await tokens.get()).toBe('stub-token-2-0123456789abcdef');
  });

  it('keeps a newer token when an older one is reported refused', async () => {
    const tokens = manager();
    await tokens.get();

    tokens.invalidate('stub-token-0-older');

    expect(await tokens.get()).toBe('stub-token-1-0123456789abcdef');
    expect(exchanges()).toHaveLength(1);
  });

  it('does nothing before any token was obtained', () => {
    expect(() => manager().invalidate('anything')).not.toThrow();
  });
});

describe('a failed exchange', () => {
  it.each([
    [500, 'server_error'],
    [503, 'server_error'],
    [401, 'auth'],
    [499, 'auth'],
  ] as const)('answered %d is UpstreamUnavailable(%s), naming the status', async (status, reason) => {
    stub.handle(answering(status));

    const error = await failureOf(manager());

    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(error).toMatchObject({ reason, message: `token exchange answered ${status}` });
  });

  it('answered 204, with no body at all, is UpstreamUnavailable(auth), naming the status', async () => {
    stub.handle((_req, res) => {
      res.writeHead(204);
      res.end();
    });

    const error = await failureOf(manager());

    expect(error).toMatchObject({ reason: 'auth', message: 'token exchange answered 204' });
  });

  it('backs off 0.5 s, 1 s, 2 s … after each failure, failing fast meanwhile without calling upstream', async () => {
    stub.handle(answering(500));
    const tokens = manager();

    for (const backOffMs of [500, 1000, 2000, 4000]) {
      await failureOf(tokens);
      const calls = exchanges().length;
      clock.advance(backOffMs - 1);
      const meanwhile = await failureOf(tokens);
      expect(meanwhile).toMatchObject({ reason: 'auth', message: 'token exchange is backing off after a failure' });
      expect(exchanges()).toHaveLength(calls);
      clock.advance(1);
    }
  });

  it('backs off at most 30 s', async () => {
    stub.handle(answering(500));
    const tokens = manager();
    for (const backOffMs of [500, 1000, 2000, 4000, 8000, 16_000, 30_000]) {
      await failureOf(tokens);
      clock.advance(backOffMs);
    }

    await failureOf(tokens);
    clock.advance(30_000);
    stub.handle(granting(3600));

    expect(await tokens.get()).toBe('stub-token-1-0123456789abcdef');
  });

  it('starts the back-off again from 0.5 s after a success', async () => {
    stub.handle(answering(500));
    const tokens = manager();
    await failureOf(tokens);
    clock.advance(500);
    await failureOf(tokens);
    clock.advance(1000);
    stub.handle(granting(1));
    await tokens.get();
    clock.advance(1000);
    stub.handle(answering(500));

    await failureOf(tokens);
    clock.advance(500);

    expect(exchanges()).toHaveLength(4);
    await failureOf(tokens);
    expect(exchanges()).toHaveLength(5);
  });

  it('when upstream is unreachable, is UpstreamUnavailable(unreachable) that surely never arrived', async () => {
    const tokens = new TokenManager({ upstreamUrl: 'http://127.0.0.1:1/api/v1', appKey: 'k', appSecretKey: 's', timeoutMs: 2_000, maxBodyBytes: MiB, clock });

    const error = await failureOf(tokens);

    expect(error).toBeInstanceOf(UpstreamUnavailable);
    expect(error).toMatchObject({ reason: 'unreachable', mayHaveArrived: false });
  });
});

describe('an exchange answered 429', () => {
  it('is UpstreamBusy for its Retry-After, and callers get UpstreamBusy with the seconds left, without an exchange', async () => {
    stub.handle(answering(429, { 'retry-after': '5' }));
    const tokens = manager();

    const first = await failureOf(tokens);
    clock.advance(1000);
    const meanwhile = await failureOf(tokens);
    clock.advance(3001);
    const lastSecond = await failureOf(tokens);

    expect(first).toBeInstanceOf(UpstreamBusy);
    expect(first).toMatchObject({ retryAfterSeconds: 5 });
    expect(meanwhile).toBeInstanceOf(UpstreamBusy);
    expect(meanwhile).toMatchObject({ retryAfterSeconds: 4 });
    expect(lastSecond).toMatchObject({ retryAfterSeconds: 1 });
    expect(exchanges()).toHaveLength(1);
  });

  it('backs off for the back-off when it is longer than Retry-After', async () => {
    stub.handle(answering(500));
    const tokens = manager();
    for (const backOffMs of [500, 1000, 2000]) {
      await failureOf(tokens);
      clock.advance(backOffMs);
    }
    stub.handle(answering(429, { 'retry-after': '1' }));
    await failureOf(tokens);

    clock.advance(4000 - 1);

    expect(await failureOf(tokens)).toMatchObject({ retryAfterSeconds: 1 });
    expect(exchanges()).toHaveLength(4);
  });

  it('is forgotten by the next failure: its back-off is then plain unavailability', async () => {
    stub.handle(answering(429, { 'retry-after': '1' }));
    const tokens = manager();
    await failureOf(tokens);
    clock.advance(1000);
    stub.handle(answering(500));
    await failureOf(tokens);

    const meanwhile = await failureOf(tokens);

    expect(meanwhile).not.toBeInstanceOf(UpstreamBusy);
    expect(meanwhile).toMatchObject({ reason: 'auth' });
  });
});

describe('toUpstreamUnavailable', () => {
  const connectionFailure = (code: unknown) => Object.assign(new TypeError('fetch failed'), { cause: { code } });

  it('passes an UpstreamUnavailable on as it is', () => {
    const original = new UpstreamUnavailable('too_large', 'too large', true);

    expect(toUpstreamUnavailable(original)).toBe(original);
  });

  it.each(['TimeoutError', 'AbortError'])('reads a %s as a timeout, that may have arrived only once sent', (name) => {
    const error = new DOMException('late', name);

    expect(toUpstreamUnavailable(error)).toMatchObject({ reason: 'timeout', message: 'upstream timed out', mayHaveArrived: false });
    expect(toUpstreamUnavailable(error, { sent: true })).toMatchObject({ reason: 'timeout', mayHaveArrived: true });
  });

  it('reads a body that failed its schema as an unexpected body', () => {
    const error = z.object({ a: z.string() }).safeParse({}).error;

    expect(toUpstreamUnavailable(error)).toMatchObject({ reason: 'server_error', message: 'upstream answered an unexpected body' });
  });

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])(
    'reads %s as unreachable, surely never arrived even once sent',
    (code) => {
      expect(toUpstreamUnavailable(connectionFailure(code), { sent: true })).toMatchObject({
        reason: 'unreachable',
        message: 'upstream unreachable',
        mayHaveArrived: false,
      });
    },
  );

  it.each([
    ['a connection lost once open', connectionFailure('ECONNRESET')],
    ['a code that is not text', connectionFailure(111)],
    ['no cause', new TypeError('fetch failed')],
    ['null', null],
  ])('reads %s as unreachable, that may have arrived once sent and not before', (_case, error) => {
    expect(toUpstreamUnavailable(error, { sent: true })).toMatchObject({ reason: 'unreachable', mayHaveArrived: true });
    expect(toUpstreamUnavailable(error)).toMatchObject({ reason: 'unreachable', mayHaveArrived: false });
  });
});
