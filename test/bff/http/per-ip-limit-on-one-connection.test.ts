import { Agent, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientIpKey } from '../../../platform/fast-http/client-ip-key.js';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';
import { startBff, startStack } from '../support/bff-harness.js';

// The per-IP limit's key is remembered per connection (platform/fast-http/client-ip-key.ts).
// These requests all travel over one kept-alive connection, as a load balancer's
// do, so a key remembered too eagerly would count the wrong client.

const LIMIT = { limit: 2, windowMs: 60_000 };

/** One connection at a time, kept alive: every request of a test on the same socket. */
let agent: Agent;

const stack = await startStack();
/** Behind a trusted proxy: the client is X-Forwarded-For's. */
const behindProxy = await startBff(stack.upstream.api, stack.clinic, { trustProxy: true, apiRateLimit: LIMIT });
/** No trusted proxy: the client is the connection's peer, whatever X-Forwarded-For says. */
const direct = await startBff(stack.upstream.api, stack.clinic, { trustProxy: false, apiRateLimit: LIMIT });
beforeEach(() => {
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
});
afterEach(() => agent.destroy());

/** One GET over the test's single connection: its status, and whether it reused the connection. */
function getOverOneConnection(url: string, forwardedFor: string): Promise<{ status: number; reusedConnection: boolean }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent, headers: { 'x-forwarded-for': forwardedFor } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reusedConnection: req.reusedSocket }));
    });
    req.on('error', reject);
  });
}

describe('per-IP rate limit, several clients over one connection', () => {
  it('behind a trusted proxy, counts each X-Forwarded-For client apart on the same connection', async () => {
    const url = `${behindProxy.api}/treatments`;

    const first = [
      await getOverOneConnection(url, '198.51.100.1'),
      await getOverOneConnection(url, '198.51.100.1'),
      await getOverOneConnection(url, '198.51.100.1'),
    ];
    const other = await getOverOneConnection(url, '198.51.100.2');
    const firstAgain = await getOverOneConnection(url, '198.51.100.1');

    expect(first.map(({ status }) => status)).toEqual([200, 200, 429]);
    expect(other).toEqual({ status: 200, reusedConnection: true });
    expect(firstAgain).toEqual({ status: 429, reusedConnection: true });
  });

  it('without a trusted proxy, counts the connection once whatever X-Forwarded-For says', async () => {
    const url = `${direct.api}/treatments`;

    const statuses = [
      await getOverOneConnection(url, '198.51.100.1'),
      await getOverOneConnection(url, '198.51.100.2'),
      await getOverOneConnection(url, '198.51.100.3'),
    ];

    expect(statuses).toEqual([
      { status: 200, reusedConnection: false },
      { status: 200, reusedConnection: true },
      { status: 429, reusedConnection: true },
    ]);
  });
});

/**
 * Guard of a hot-path trick (docs/performance.md): clientIpKey remembers a key
 * per connection, which holds only while req.ip depends on nothing but the
 * peer, X-Forwarded-For and `trust proxy`, and the key is express-rate-limit's
 * ipKeyGenerator of it. Every request here compares the remembered key with
 * the library's own, over one connection.
 */
describe('clientIpKey against express-rate-limit’s own key of req.ip', () => {
  it.each([
    ['no trusted proxy', false],
    ['any proxy trusted', true],
    ['one hop trusted', 1],
    ['loopback trusted', 'loopback'],
  ])('%s: the same key as ipKeyGenerator(req.ip) on every request of one connection', async (_name, trustProxy) => {
    const app = express();
    app.set('trust proxy', trustProxy);
    app.get('/', (req, res) => {
      res.json({ ours: clientIpKey(req), theirs: ipKeyGenerator(req.ip ?? 'unknown') });
    });
    const server = createHttpServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const keysOf = (forwardedFor: string | undefined) =>
      new Promise<{ ours: string; theirs: string }>((resolve, reject) => {
        const req = get(url, { agent, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(JSON.parse(text) as { ours: string; theirs: string }));
        });
        req.on('error', reject);
      });
    try {
      const forwarded = [undefined, '198.51.100.1', '198.51.100.1', '198.51.100.2, 203.0.113.9', '2001:db8:1:2::1', '2001:db8:1:2::2', undefined, 'not an ip'];
      const keys = [];
      for (const forwardedFor of forwarded) keys.push(await keysOf(forwardedFor));
      for (const { ours, theirs } of keys) expect(ours).toBe(theirs);
      if (trustProxy === true) expect(new Set(keys.map(({ theirs }) => theirs)).size).toBeGreaterThan(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
