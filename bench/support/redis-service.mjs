// The Redis a benchmark's "limits in Redis" phase counts in: the server BENCH_REDIS_URL names (by
// default the local one the tests use), under a key prefix of its own, whose keys cleanUp() deletes.

import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { stopAtCleanUp } from './processes.mjs';

export const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Answers { url, keyPrefix } for REDIS_URL and REDIS_KEY_PREFIX once Redis answers a PING, or
 * { unavailable } with the reason (host and port only). The keys under the prefix are deleted at
 * cleanUp().
 */
export async function benchRedis() {
  const keyPrefix = `clinic-bench-${randomBytes(6).toString('hex')}:`;
  const client = createClient({ url: BENCH_REDIS_URL, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  client.on('error', () => {}); // a refused connection is reported by connect() below
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    return { unavailable: `Redis at ${new URL(BENCH_REDIS_URL).host} cannot be used: ${error instanceof Error ? error.message : String(error)}` };
  }
  stopAtCleanUp(async () => {
    for await (const keys of client.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
    await client.quit();
  });
  return { url: BENCH_REDIS_URL, keyPrefix };
}
