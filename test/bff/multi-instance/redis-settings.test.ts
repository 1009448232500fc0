import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBffConfig } from '../../../bff/config.js';
import { REPO_ROOT } from '../../server/support/server-process.js';
import { entryPointArgs } from '../../support/entry-point.js';
import { serviceAvailable } from '../../support/service-available.js';
import { freePort } from '../../support/free-port.js';
import { inspector, SHARED_REDIS_URL, testKeyPrefix } from '../../support/redis.js';

const valid = {
  UPSTREAM_URL: 'http://127.0.0.1:4000/api/v1',
  APP_KEY: 'ck_redis_settings',
  APP_SECRET_KEY: 'redis-settings-secret-0123456789',
  BOOKING_REF_SECRET: 'redis-settings-booking-reference-secret-0123456789',
};

describe('the Redis settings of the BFF', () => {
  it('keeps everything in memory when REDIS_URL is unset', () => {
    expect(loadBffConfig(valid, '/nonexistent').redisUrl).toBeUndefined();
  });

  it('reads REDIS_URL and REDIS_KEY_PREFIX, clinic-booking: by default', () => {
    expect(loadBffConfig({ ...valid, REDIS_URL: 'rediss://cache.internal:6380/2' }, '/nonexistent')).toMatchObject({
      redisUrl: 'rediss://cache.internal:6380/2',
      redisKeyPrefix: 'clinic-booking:',
    });
    expect(loadBffConfig({ ...valid, REDIS_URL: 'redis://127.0.0.1', REDIS_KEY_PREFIX: 'clinic-7:' }, '/nonexistent').redisKeyPrefix).toBe('clinic-7:');
  });

  it.each([
    ['a REDIS_URL of another scheme', { REDIS_URL: 'http://user:pa55word@cache:6379' }, 'REDIS_URL'],
    ['an empty REDIS_KEY_PREFIX', { REDIS_KEY_PREFIX: '' }, 'REDIS_KEY_PREFIX'],
  ])('refuses %s, naming it and never printing its value', (_name, change, variable) => {
    const attempt = () => loadBffConfig({ ...valid, ...change }, '/nonexistent');
    expect(attempt).toThrow(variable);
    expect(attempt).not.toThrow('pa55word');
  });
});

/** The BFF's real entry point (bff/main.ts, bundled: test/support/entry-point.ts), once it listens; `output()` is all it wrote so far. */
async function startBffProcess(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string; baseUrl: string }> {
  const child = spawn(process.execPath, entryPointArgs('bff/main.ts'), {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, ...valid, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"port":(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error(`BFF exited during start-up:\n${output}`)));
  });
  return { child, output: () => output, baseUrl: `http://127.0.0.1:${port}` };
}

describe.runIf(serviceAvailable('redis'))('the BFF process with REDIS_URL', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('says at start that its limits and taken slots are shared, and counts its requests in Redis', async () => {
    const prefix = testKeyPrefix('bff-process');
    const bff = await startBffProcess({ REDIS_URL: SHARED_REDIS_URL, REDIS_KEY_PREFIX: prefix });
    child = bff.child;
    const redis = await inspector();
    try {
      expect(bff.output()).toContain('Redis connected');

      // A closed path under /api is still counted by the per-IP /api limiter, and needs no upstream.
      expect((await fetch(`${bff.baseUrl}/api/granttoken`)).status).toBe(404);

      expect((await redis.keys(prefix)).filter((key) => key.endsWith(':rl:api:127.0.0.1'))).toHaveLength(1);
    } finally {
      await redis.cleanUp(prefix);
      await redis.close();
    }
  });

  it('starts and answers with a Redis that cannot be reached, with one warning naming its host and port only', async () => {
    const port = await freePort();
    const bff = await startBffProcess({ REDIS_URL: `redis://user:pa55word@127.0.0.1:${port}` });
    child = bff.child;

    expect((await fetch(`${bff.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${bff.baseUrl}/api/granttoken`)).status).toBe(404);
    const warnings = bff.output().split('\n').filter((line) => line.includes('Redis unavailable'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`127.0.0.1:${port}`);
    expect(bff.output()).not.toContain('pa55word');
  });
});
