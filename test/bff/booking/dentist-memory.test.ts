import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_MEMORY_TTL_MS, MemoryDentistMemory, SharedDentistMemory } from '../../../bff/booking/dentist-memory.js';
import { createLogger } from '../../../platform/logger.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { collectLogLines } from '../../server/support/test-server.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, ownRedis, testKeyPrefix } from '../../support/redis.js';

/**
 * The dentist each patient key (Idempotency-Key) of an "any dentist" booking
 * tried: per process by default, shared by the clinic's BFFs under REDIS_URL.
 * The routes' use of it is in test/bff/availability (one BFF) and
 * test/bff/multi-instance/shared-dentist-memory.test.ts (two BFFs).
 */

describe('the dentist memory in this process', () => {
  it('answers the dentist remembered for a key, the latest one, and nothing for another key', async () => {
    const memory = new MemoryDentistMemory(new FakeClock(TEST_NOW));
    await memory.remember('patient-key', 1);
    await memory.remember('patient-key', 2);

    expect(await memory.dentistOf('patient-key')).toBe(2);
    expect(await memory.dentistOf('another-key')).toBeUndefined();
  });

  it("forgets a key once upstream's replay window (KEY_MEMORY_TTL_MS) has passed", async () => {
    const clock = new FakeClock(TEST_NOW);
    const memory = new MemoryDentistMemory(clock);
    await memory.remember('patient-key', 1);

    clock.advance(KEY_MEMORY_TTL_MS);
    expect(await memory.dentistOf('patient-key')).toBe(1);
    clock.advance(1);

    expect(await memory.dentistOf('patient-key')).toBeUndefined();
  });
});

describe.runIf(serviceAvailable('redis'))('the dentist memory shared through Redis', () => {
  const prefix = testKeyPrefix('bff-dentist-memory-unit');
  const links: RedisLink[] = [];
  /** One BFF's memory: its own link and its own local copy, on the shared Redis. */
  const bffMemory = async () => {
    const link = await openLink(prefix);
    links.push(link);
    return new SharedDentistMemory(link, `${prefix}dentist:`, new MemoryDentistMemory());
  };
  let redis: Awaited<ReturnType<typeof inspector>>;

  beforeAll(async () => {
    redis = await inspector();
  });
  afterAll(async () => {
    await Promise.all(links.map((link) => link.close()));
    await redis.cleanUp(prefix);
    await redis.close();
  });

  it("answers, on one BFF, the dentist another BFF remembered for the key", async () => {
    const [a, b] = [await bffMemory(), await bffMemory()];

    await a.remember('shared-key', 3);

    expect(await b.dentistOf('shared-key')).toBe(3);
    expect(await b.dentistOf('unknown-key')).toBeUndefined();
  });

  it("answers the latest try, made on another BFF, over this BFF's own older entry", async () => {
    const [a, b] = [await bffMemory(), await bffMemory()];
    await a.remember('moved-on-key', 1);

    await b.remember('moved-on-key', 2);

    expect(await a.dentistOf('moved-on-key')).toBe(2);
  });

  it.each([['0'], ['-3'], ['1.5'], ['seven'], ['9007199254740993']])(
    "answers this BFF's own entry when Redis holds %s for the key, which names no dentist",
    async (stored) => {
      const link = await openLink(prefix);
      links.push(link);
      const memory = new SharedDentistMemory(link, `${prefix}dentist:`, new MemoryDentistMemory());
      await memory.remember('garbled-key', 5);
      // sha256('garbled-key'), base64url: the entry another writer spoilt.
      const key = `${prefix}dentist:${createHash('sha256').update('garbled-key').digest('base64url')}`;
      await link.send(['SET', key, stored]);

      expect(await memory.dentistOf('garbled-key')).toBe(5);
    },
  );

  it('stores the SHA-256 of the key (base64url) and the dentist id, nothing else, for KEY_MEMORY_TTL_MS', async () => {
    const memory = await bffMemory();

    await memory.remember('hashed-key', 4);

    // sha256('hashed-key'), base64url.
    const key = `${prefix}dentist:pK6Htz-lZF5q7kFab3K-TcvZnQV6e0DLG4Z8GB0XkmA`;
    expect((await redis.keys(prefix)).filter((name) => name.includes('hashed-key'))).toEqual([]);
    expect(await redis.get(key)).toBe('4');
    expect(await redis.pttl(key)).toBeGreaterThan(KEY_MEMORY_TTL_MS - 60_000);
  });
});

describe.runIf(serviceAvailable('redis'))('the shared dentist memory during a Redis outage', () => {
  const prefix = testKeyPrefix('bff-dentist-memory-outage');

  it("remembers and answers from this BFF's memory, with no warning beyond the link's one", async () => {
    const own = await ownRedis();
    await own.start();
    const { lines, sink } = collectLogLines();
    const link = await openLink(prefix, createLogger('info', sink), own.url);
    // OwnRedis.kill() waits for an exit: only once.
    let killed = false;
    try {
      const memory = new SharedDentistMemory(link, `${prefix}dentist:`, new MemoryDentistMemory());
      await memory.remember('before-key', 1);

      killed = true;
      await own.kill();
      await memory.remember('during-key', 2);

      expect(await memory.dentistOf('before-key')).toBe(1);
      expect(await memory.dentistOf('during-key')).toBe(2);
      expect(link.available).toBe(false);
      const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 40);
      expect(warnings.map((line) => line.msg)).toEqual([expect.stringContaining('Redis unavailable')]);
    } finally {
      await link.close();
      if (!killed) await own.kill();
    }
  });
});
