import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { BffBookingResponse } from '../../../contract/bff.js';
import { ErrorBody } from '../../../contract/index.js';
import type { BffConfig } from '../../../bff/config.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { appointmentIdOf, bffClinicFixture, startBff, startStubUpstream, type RunningBff, type StubUpstream } from '../support/bff-harness.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';
import { eventually } from '../../support/eventually.js';
import { HeldCalls } from '../support/held-calls.js';
import { expectError } from '../../support/expect-error.js';

/**
 * Two BFFs of one clinic behind one load balancer, each with its own
 * connection to one Redis (REDIS_URL), in this process: a visitor's budgets
 * (bookings, status lookups, all of /api) are one count across both.
 */

type Inspector = Awaited<ReturnType<typeof inspector>>;
const bookingAt = (time: string) => validBooking({ appointment_time: time });

const book = (bff: RunningBff, body: unknown, key?: string) =>
  fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });

const lookUp = (bff: RunningBff, reference: string) =>
  fetch(`${bff.api}/appointments/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference }) });

async function expectRateLimited(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(ErrorBody.parse(await res.json()).error_code).toBe('rate_limited');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** Two BFFs in front of `upstream`, each on its own link to the shared Redis under `prefix`. */
async function twoBffs(upstream: string, clinic: { appKey: string; secret: string }, prefix: string, overrides: Partial<BffConfig>) {
  const links: RedisLink[] = [await openLink(prefix), await openLink(prefix)];
  const bffs = await Promise.all(links.map((link) => startBff(upstream, clinic, overrides, new FakeClock(TEST_NOW), link)));
  return {
    a: bffs[0] as RunningBff,
    b: bffs[1] as RunningBff,
    async close() {
      await Promise.all(bffs.map((bff) => bff.close()));
      await Promise.all(links.map((link) => link.close()));
    },
  };
}

describe.runIf(serviceAvailable('redis'))('two BFFs on one Redis, in front of the reference server', () => {
  let upstream: TestServer;
  let clinic: SeededClinic;
  let redis: Inspector;

  beforeAll(async () => {
    upstream = await startTestServer();
    clinic = await seedClinic(upstream, bffClinicFixture());
    redis = await inspector();
  });
  afterAll(async () => {
    await upstream.close();
    removeDb(upstream.dbPath);
    await redis.close();
  });

  /** Two BFFs on a Redis key prefix of the test's own, so no budget another test spent is shared with them. */
  async function ownPair() {
    const prefix = testKeyPrefix('bff-shared-limits');
    const pair = await twoBffs(upstream.api, clinic, prefix, {
      bookingRateLimit: { limit: 2, windowMs: 60_000 },
      statusRateLimit: { limit: 3, windowMs: 60_000 },
    });
    onTestFinished(async () => {
      await pair.close();
      await redis.cleanUp(prefix);
    });
    return { ...pair, prefix };
  }

  const upstreamBookings = () =>
    upstream.logs.filter((line) => (JSON.parse(line) as { req?: { path?: string } }).req?.path === '/api/v1/appointments/book').length;

  it('shares the per-IP booking budget: one booking on each spends 2, and the third, on either, is 429 and never sent upstream', async () => {
    const pair = await ownPair();
    const before = upstreamBookings();
    expect((await book(pair.a, bookingAt('10:00'))).status).toBe(200);
    expect((await book(pair.b, bookingAt('10:15'))).status).toBe(200);

    await expectRateLimited(await book(pair.a, bookingAt('10:30')));
    await expectRateLimited(await book(pair.b, bookingAt('10:45')));
    expect(upstreamBookings() - before).toBe(2);
  });

  it('shares the per-IP status lookup budget', async () => {
    const pair = await ownPair();
    const reference = 'ABCD-EFGH-JKMN-PQRS';
    const statuses = [(await lookUp(pair.a, reference)).status, (await lookUp(pair.b, reference)).status, (await lookUp(pair.a, reference)).status];
    expect(statuses).toEqual([404, 404, 404]);

    await expectRateLimited(await lookUp(pair.b, reference));
  });

  it("keeps the counts under REDIS_KEY_PREFIX, the clinic's namespace and the limiter's name, never the app key itself", async () => {
    const pair = await ownPair();
    expect((await book(pair.a, bookingAt('11:00'))).status).toBe(200);
    expect((await lookUp(pair.b, 'ABCD-EFGH-JKMN-PQRS')).status).toBe(404);

    const keys = await redis.keys(pair.prefix);

    expect(keys.some((key) => /^test:.+:bff:[0-9a-f]{16}:rl:booking:127\.0\.0\.1$/.test(key))).toBe(true);
    expect(keys.some((key) => key.endsWith(':rl:status:127.0.0.1'))).toBe(true);
    expect(keys.some((key) => key.endsWith(':rl:api:127.0.0.1'))).toBe(true);
    expect(keys.filter((key) => key.includes(clinic.appKey))).toEqual([]);
  });
});

describe.runIf(serviceAvailable('redis'))('two BFFs on one Redis: the budget on all of /api', () => {
  const prefix = testKeyPrefix('bff-shared-api-limit');
  let upstream: TestServer;
  let pair: Awaited<ReturnType<typeof twoBffs>>;

  beforeAll(async () => {
    upstream = await startTestServer();
    pair = await twoBffs(upstream.api, await seedClinic(upstream), prefix, { apiRateLimit: { limit: 4, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await pair.close();
    await upstream.close();
    removeDb(upstream.dbPath);
    const redis = await inspector();
    await redis.cleanUp(prefix);
    await redis.close();
  });

  it('answers the fifth GET, two on one BFF and two on the other before it, 429 on either', async () => {
    const statuses = [];
    for (const bff of [pair.a, pair.b, pair.a, pair.b]) statuses.push((await fetch(`${bff.api}/treatments`)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);

    await expectRateLimited(await fetch(`${pair.b.api}/dentists`));
    await expectRateLimited(await fetch(`${pair.a.api}/treatments`));
  });
});

describe.runIf(serviceAvailable('redis'))('the booking given back after a 504, in Redis', () => {
  const prefix = testKeyPrefix('bff-shared-504');
  const credentials = { appKey: 'ck_shared_504', secret: 'shared-504-secret-0123456789' };
  let stub: StubUpstream;
  let pair: Awaited<ReturnType<typeof twoBffs>>;
  let redis: Inspector;
  /** The first booking is held at upstream until the test lets it go, after its 504; later ones pass at once. */
  const calls = new HeldCalls();
  let first = true;

  beforeAll(async () => {
    stub = await startStubUpstream(async (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify({ access_token: 'stub-token-shared-504-0123456789', expires_in: 3600 }));
      if (req.url !== '/api/v1/appointments/book') return void res.end(JSON.stringify({ success: true, data: [] }));
      if (first) {
        first = false;
        await calls.hold('booking');
      }
      res.end(JSON.stringify({ success: true, message: 'Appointment booked successfully', data: { appointment_id: 41 } }));
    });
    pair = await twoBffs(stub.api, credentials, prefix, { bookingTimeoutMs: 300, bookingRateLimit: { limit: 1, windowMs: 60_000 } });
    redis = await inspector();
  });
  afterAll(async () => {
    await pair.close();
    await stub.close();
    await redis.cleanUp(prefix);
    await redis.close();
  });

  it('does not count a booking answered 504: its re-send on the other BFF is booked, and only then is the budget spent', async () => {
    await expectError(await book(pair.a, validBooking(), 'patient-key'), 504, 'booking_outcome_unknown');
    calls.release('booking');
    const [counter] = (await redis.keys(prefix)).filter((key) => key.endsWith(':rl:booking:127.0.0.1'));
    // Given back once the 504 has been sent (DECR after the answer's 'finish').
    await eventually(async () => expect(await redis.get(counter as string)).toBe('0'));

    const resent = await book(pair.b, validBooking(), 'patient-key');

    expect(resent.status).toBe(200);
    expect(appointmentIdOf(pair.b, BffBookingResponse.parse(await resent.json()).data.reference)).toBe(41);
    expect(await redis.get(counter as string)).toBe('1');
    await expectRateLimited(await book(pair.a, bookingAt('11:00'), 'another-key'));
  });
});
