import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { authHeaders, seedDatabase } from '../support/seed-database.js';
import { createTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, SHARED_REDIS_URL, testKeyPrefix } from '../../support/redis.js';

/**
 * Two real server processes behind one load balancer, as docs/operations.md's "Running
 * several instances" describes: one database (of the run's engine) and one
 * Redis (REDIS_URL). API_RATE_LIMIT=10 is the app key's budget across both,
 * not 10 on each.
 */
describe.runIf(serviceAvailable('redis'))(`two server processes on one ${TEST_ENGINE} database and one Redis`, () => {
  const prefix = testKeyPrefix('server-processes');
  let database: TestDatabase;
  let processes: ServerProcess[] = [];
  let headers: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const keys = await seedDatabase(database.url);
    const env = { DATABASE_URL: database.url, REDIS_URL: SHARED_REDIS_URL, REDIS_KEY_PREFIX: prefix, API_RATE_LIMIT: '10' };
    processes.push(await startServerProcess(env));
    processes.push(await startServerProcess(env));
    headers = await authHeaders(processes[0]!.api, keys);
  });
  afterAll(async () => {
    for (const server of processes) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    processes = [];
    const redis = await inspector();
    await redis.cleanUp(prefix);
    await redis.close();
    await database?.remove();
  });

  const get = (server: ServerProcess) => fetch(`${server.api}/dentists`, { headers });

  it('each says at start that its limits are shared through Redis', () => {
    for (const server of processes) expect(server.output()).toContain('Redis connected');
  });

  it('lets 10 requests spread over both through, and answers the 11th, on either, 429', async () => {
    const [a, b] = processes as [ServerProcess, ServerProcess];
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await get(i % 3 === 0 ? b : a)).status);
    expect(statuses).toEqual(Array(10).fill(200));

    const eleventhOnA = await get(a);
    const twelfthOnB = await get(b);

    expect(eleventhOnA.status).toBe(429);
    expect(await eleventhOnA.json()).toMatchObject({ success: false, error_code: 'rate_limited' });
    expect(eleventhOnA.headers.get('ratelimit-policy')).toMatch(/q=10/);
    expect(twelfthOnB.status).toBe(429);
  });
});
