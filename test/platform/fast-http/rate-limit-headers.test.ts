import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import express from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';
import { perIpRateLimit } from '../../../platform/rate-limits.js';

const WINDOW = { limit: 3, windowMs: 60_000 };
const TIGHTER = { limit: 2, windowMs: 600_000 };

/** express-rate-limit writing its own draft-8 headers: what specRateLimit's headers must equal. */
const byTheLibrary = (identifier: string, window: typeof WINDOW): RequestHandler =>
  rateLimit({
    ...window,
    identifier,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
  });

/** The status and rate-limit headers of `count` GETs through two limiters in a row (as the BFF's bookings pass two). */
async function answersThrough(limiters: RequestHandler[], count: number): Promise<string[][]> {
  const app = express();
  app.use(...limiters);
  app.get('/', (_req, res) => {
    res.send('ok');
  });
  const server = createHttpServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const answers: string[][] = [];
    for (let i = 0; i < count; i++) {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await res.text();
      answers.push([String(res.status), ...['ratelimit', 'ratelimit-policy', 'retry-after'].map((name) => `${name}: ${res.headers.get(name)}`)]);
    }
    return answers;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('the rate limits\' draft-8 headers', () => {
  beforeEach(() => {
    // One instant for both apps, so their reset seconds (t=) agree.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T10:00:00.250Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('are the bytes express-rate-limit writes itself: both policies appended, counts, partition keys and Retry-After on the 429', async () => {
    const theirs = await answersThrough([byTheLibrary('api', WINDOW), byTheLibrary('booking', TIGHTER)], 4);
    const ours = await answersThrough([perIpRateLimit('api', 'slow down', WINDOW), perIpRateLimit('booking', 'slow down', TIGHTER)], 4);

    expect(theirs.map(([status]) => status)).toEqual(['200', '200', '429', '429']);
    expect(theirs[0]).toContain('ratelimit: "api"; r=2; t=60, "booking"; r=1; t=600');
    expect(theirs[2]).toContain('retry-after: 600');
    expect(ours).toEqual(theirs);
  });

  it('count down to r=0 and name a client by the hash of its key, the same for each of its requests', async () => {
    const ours = await answersThrough([perIpRateLimit('api', 'slow down', WINDOW)], 4);

    expect(ours.map((answer) => answer[1])).toEqual([2, 1, 0, 0].map((remaining) => `ratelimit: "api"; r=${remaining}; t=60`));
    expect(new Set(ours.map((answer) => answer[2])).size).toBe(1);
    expect(ours[0]![2]).toMatch(/^ratelimit-policy: "api"; q=3; w=60; pk=:[A-Za-z0-9+/]{16}:$/);
    expect(ours.map(([status]) => status)).toEqual(['200', '200', '200', '429']);
  });
});
