import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import type { Logger } from 'pino';
import { silentLogger } from './silent-logger.js';
import { RedisLink } from '../../platform/redis-link.js';
import { freePort } from './free-port.js';
import { SERVICES } from './services.js';

/** The Redis the Redis-backed suites share (127.0.0.1:6379 unless TEST_REDIS_URL). */
export const SHARED_REDIS_URL = SERVICES.redis.url;

/**
 * A key prefix of one test file's own, so files running at the same time never
 * count into each other's keys; `cleanUp` removes everything under it.
 */
export function testKeyPrefix(file: string): string {
  return `test:${file}:${process.pid}-${randomBytes(4).toString('hex')}:`;
}

/** A RedisLink as a service instance opens one; each simulated instance gets its own. */
export function openLink(keyPrefix: string, logger: Logger = silentLogger(), url = SHARED_REDIS_URL): Promise<RedisLink> {
  return RedisLink.open(url, { logger, keyPrefix });
}

/** A plain client, to look at and clean up what the services wrote. */
export async function inspector(url = SHARED_REDIS_URL) {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  return {
    /** Every key under the prefix. */
    async keys(prefix: string): Promise<string[]> {
      const found: string[] = [];
      for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) found.push(...batch);
      return found.sort();
    },
    get: (key: string) => client.get(key),
    pttl: (key: string) => client.pTTL(key),
    /** A set's members, sorted. */
    members: async (key: string) => (await client.sMembers(key)).sort(),
    /** Adds a member to a set, as an older service version would have written it. */
    addMember: (key: string, member: string) => client.sAdd(key, member),
    /** How many connections listen on a pub/sub channel: a subscription is in place once Redis counts it. */
    subscribers: async (channel: string) => Number((await client.pubSubNumSub(channel))[channel] ?? 0),
    /** Removes every key under the prefix. */
    async cleanUp(prefix: string): Promise<void> {
      const keys = await this.keys(prefix);
      if (keys.length > 0) await client.del(keys);
    },
    close: () => client.close(),
  };
}

export interface OwnRedis {
  url: string;
  port: number;
  /** Starts (again) on the same port; resolves once it accepts commands. */
  start(): Promise<void>;
  /** Kills it (SIGKILL): the outage. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that keeps its connections open and stops answering. */
  pause(): void;
  resume(): void;
}

/**
 * A redis-server of the test's own, on a free port, keeping nothing on disk:
 * one a test may stop, never the shared one at 6379.
 */
export async function ownRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const own: OwnRedis = {
    url,
    port,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const started = child;
      // Never outlive the test process, whatever happens to it (a paused one included).
      process.once('exit', () => started.kill('SIGKILL'));
      await new Promise<void>((resolve, reject) => {
        const onData = () => {
          if (output.includes('Ready to accept connections')) resolve();
        };
        started.stdout?.on('data', onData);
        started.once('exit', () => reject(new Error(`redis-server exited:\n${output}`)));
      });
    },
    async kill() {
      // A killed process has a signalCode and no exitCode: either means it is gone already.
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
  };
  return own;
}
