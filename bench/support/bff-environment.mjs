// The environment a benchmark starts a compiled BFF with: only what the benchmark decides, plus PATH.

import { join } from 'node:path';
import { HOST, ROOT } from './processes.mjs';

/**
 * The BFF in front of `upstreamUrl` with the demo clinic's `keys`, on `port`; a per-IP limit too large
 * to interfere (every benchmark request comes from one IP); with `redis`, its limits counted there.
 */
export function bffEnvironment({ upstreamUrl, keys, port, cacheTtlMs, cacheMaxBytes, redis, extraEnv = {} }) {
  return {
    PATH: process.env.PATH ?? '',
    UPSTREAM_URL: upstreamUrl,
    APP_KEY: keys.app_key,
    APP_SECRET_KEY: keys.app_secret_key,
    BOOKING_REF_SECRET: 'benchmark-booking-reference-secret-0123456789',
    PORT: String(port),
    HOST,
    API_RATE_LIMIT: '100000000',
    CACHE_TTL_MS: String(cacheTtlMs),
    CACHE_MAX_BYTES: String(cacheMaxBytes),
    LOG_LEVEL: 'info',
    WIDGET_DIR: join(ROOT, 'widget/dist'),
    ...(redis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.keyPrefix } : {}),
    ...extraEnv,
  };
}
