import { Agent, get } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBff, startStack } from '../support/bff-harness.js';

// These requests all travel over one kept-alive connection, as a load balancer's
// do: each is counted for its own client (X-Forwarded-For), not for the connection.

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
