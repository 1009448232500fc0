import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AvailabilityResponse } from '../../../contract/bff.js';
import { ErrorBody } from '../../../contract/index.js';
import { createLogger } from '../../../platform/logger.js';
import { REDIS_COMMAND_TIMEOUT_MS, type RedisLink } from '../../../platform/redis-link.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { collectLogLines, removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { startBff, type RunningBff } from '../support/bff-harness.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, ownRedis, testKeyPrefix, type OwnRedis } from '../../support/redis.js';

/**
 * What a Redis outage does to a BFF under REDIS_URL: requests go on being
 * answered, limited per instance in memory (200 while within the budget, 429
 * past it), with ONE warning however many requests meet the outage; when Redis
 * answers again, counting is shared again. Each test runs a redis-server of its
 * own on a free port and stops it; the shared one at 6379 is never touched.
 */

const TUESDAY = '2026-11-24';
const WARNING = 'Redis unavailable';
const BACK = 'Redis answers again';

describe.runIf(serviceAvailable('redis'))('a Redis outage under REDIS_URL', () => {
  const prefix = testKeyPrefix('bff-redis-outage');
  let upstream: TestServer;
  let clinic: SeededClinic;
  let redis: OwnRedis | undefined;
  let link: RedisLink | undefined;
  let bff: RunningBff | undefined;
  /** What the link logged: the outage's warning and its end. */
  let linkLogs: string[];

  beforeAll(async () => {
    upstream = await startTestServer();
    clinic = await seedClinic(upstream);
  });
  afterEach(async () => {
    try {
      await bff?.close();
      await link?.close();
    } finally {
      await redis?.kill();
      vi.restoreAllMocks();
    }
  });
  afterAll(async () => {
    await upstream.close();
    removeDb(upstream.dbPath);
  });

  /** A BFF with a booking budget of `bookingLimit`, its link to `redis` logging into linkLogs. */
  async function startOn(own: OwnRedis, bookingLimit: number): Promise<RunningBff> {
    const { lines, sink } = collectLogLines();
    linkLogs = lines;
    link = await openLink(prefix, createLogger('info', sink), own.url);
    return startBff(upstream.api, clinic, { bookingRateLimit: { limit: bookingLimit, windowMs: 60_000 } }, new FakeClock(TEST_NOW), link);
  }

  const logged = (text: string) => linkLogs.filter((line) => line.includes(text));
  const book = (time: string) =>
    fetch(`${bff?.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ appointment_time: time })),
    });
  /** The booking counter in the test's own Redis (null when nothing was counted there). */
  async function bookingCount(own: OwnRedis): Promise<string | null> {
    const look = await inspector(own.url);
    try {
      const [key] = (await look.keys(prefix)).filter((name) => name.endsWith(':rl:booking:127.0.0.1'));
      return key === undefined ? null : await look.get(key);
    } finally {
      await look.close();
    }
  }

  it('answers from the in-memory limiter (200, then 429) once Redis is killed, logs one warning, and shares again when it is back', async () => {
    redis = await ownRedis();
    await redis.start();
    bff = await startOn(redis, 2);
    const consoleErrors = vi.spyOn(console, 'error');
    expect((await book('09:00')).status).toBe(200);
    expect(await bookingCount(redis)).toBe('1');

    await redis.kill();
    const during = [await book('09:15'), await book('09:30'), await book('09:45')];

    // Redis had counted one: in memory this instance starts again from zero.
    expect(during.map((res) => res.status)).toEqual([200, 200, 429]);
    expect(ErrorBody.parse(await during[2]?.json()).error_code).toBe('rate_limited');
    const availability = await fetch(`${bff.api}/availability?date=${TUESDAY}`);
    expect(availability.status).toBe(200);
    AvailabilityResponse.parse(await availability.json());
    expect(logged(WARNING)).toHaveLength(1);
    expect(JSON.parse(logged(WARNING)[0] as string)).toMatchObject({ level: 40, redis: `127.0.0.1:${redis.port}` });

    await redis.start();
    await vi.waitFor(() => expect(link?.available).toBe(true), { timeout: 15_000, interval: 50 });
    const after = await book('10:00');

    // Memory would refuse it (three counted there); Redis, empty after its restart, counts it as its first.
    expect(after.status).toBe(200);
    expect(await bookingCount(redis)).toBe('1');
    expect(logged(WARNING)).toHaveLength(1);
    expect(logged(BACK)).toHaveLength(1);
    expect(consoleErrors).not.toHaveBeenCalled();
  });

  it('starts on in-memory limits with one warning when Redis is down at start, and shares once it comes up', async () => {
    redis = await ownRedis();
    bff = await startOn(redis, 1);
    expect(link?.available).toBe(false);

    expect((await book('11:00')).status).toBe(200);
    expect((await book('11:15')).status).toBe(429);
    expect(logged(WARNING)).toHaveLength(1);

    await redis.start();
    await vi.waitFor(() => expect(link?.available).toBe(true), { timeout: 15_000, interval: 50 });

    expect((await book('11:30')).status).toBe(200);
    expect(await bookingCount(redis)).toBe('1');
    expect(logged(WARNING)).toHaveLength(1);
  });

  it('falls back when Redis stops answering on an open connection, with one warning, and uses it again once it answers', async () => {
    redis = await ownRedis();
    await redis.start();
    bff = await startOn(redis, 100);
    expect((await book('12:00')).status).toBe(200);

    redis.pause();
    const during = [await book('12:15'), await book('12:30'), await book('12:45')];

    expect(during.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(link?.available).toBe(false);
    expect(logged(WARNING)).toHaveLength(1);
    expect(JSON.parse(logged(WARNING)[0] as string).reason).toMatch(/did not answer within/);

    redis.resume();
    await vi.waitFor(() => expect(link?.available).toBe(true), { timeout: 15_000, interval: 50 });
    const before = Number(await bookingCount(redis));
    expect((await book('13:00')).status).toBe(200);

    expect(Number(await bookingCount(redis))).toBe(before + 1);
    expect(logged(WARNING)).toHaveLength(1);
    expect(logged(BACK)).toHaveLength(1);
  });

  it('does not count Redis down when this process itself stalls past the deadline while the reply is on its way', async () => {
    redis = await ownRedis();
    await redis.start();
    const { lines, sink } = collectLogLines();
    linkLogs = lines;
    link = await openLink(prefix, createLogger('info', sink), redis.url);

    // The command goes out (node-redis writes it before the check phase); then this process is busy for
    // longer than REDIS_COMMAND_TIMEOUT_MS, as a starved CPU or a long synchronous task would keep it,
    // while Redis answers at once. The reply waits unread in the socket until the stall ends.
    const answer = link.send<string>(['PING']);
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        const until = Date.now() + REDIS_COMMAND_TIMEOUT_MS + 300;
        while (Date.now() < until) {
          // busy: nothing else runs
        }
        resolve();
      }),
    );

    await expect(answer).resolves.toBe('PONG');
    expect(link.available).toBe(true);
    expect(logged(WARNING)).toEqual([]);
  });
});

