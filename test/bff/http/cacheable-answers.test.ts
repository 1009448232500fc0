import { describe, expect, it } from 'vitest';
import { validBooking } from '../../server/support/test-server.js';
import { rawGet, type RawAnswer } from '../content/raw-get.js';
import { startBff, startStack } from '../support/bff-harness.js';

/**
 * An answer a CDN may keep (`Cache-Control: public`) is handed to everyone
 * who asks after: it carries nothing of the client that asked first. The
 * RateLimit and RateLimit-Policy headers are that client's own count and a
 * hash of its IP, so they stay on the answers nobody keeps (bookings, status
 * lookups, availability, the 429 itself), while every request still counts.
 */

const PER_CLIENT = ['ratelimit', 'ratelimit-policy'];
const API_LIMIT = 12;

const stack = await startStack({ bff: { apiRateLimit: { limit: API_LIMIT, windowMs: 60_000 } } });

const perClient = (answer: RawAnswer) => PER_CLIENT.filter((name) => answer.headers[name] !== undefined);

describe('answers shared caches may keep', () => {
  it.each(['/content', '/organization', '/website', '/treatments', '/treatments/1', '/dentists', '/openapi.json'])(
    'GET /api%s is public and carries no RateLimit or RateLimit-Policy',
    async (path) => {
      const answer = await rawGet(`${stack.bff.api}${path}`, { 'accept-encoding': 'br' });

      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toMatch(/^public\b/);
      expect(perClient(answer)).toEqual([]);
    },
  );

  it('answers a 304 without them either (its headers update what a cache keeps)', async () => {
    const first = await rawGet(`${stack.bff.api}/content`, {});

    const again = await rawGet(`${stack.bff.api}/content`, { 'if-none-match': String(first.headers.etag) });

    expect(again.status).toBe(304);
    expect(perClient(again)).toEqual([]);
  });
});

describe('answers nobody keeps', () => {
  it.each([
    ['a booking', () => fetch(`${stack.bff.api}/appointments/book`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(validBooking({ doctor_id: 1 })) })],
    ['a status lookup', () => fetch(`${stack.bff.api}/appointments/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference: 'ABCD-EFGH-JKMN-PQRS-TVWX' }) })],
    ['availability', () => fetch(`${stack.bff.api}/availability?date=2026-11-24`)],
  ])('%s is no-store and keeps them', async (_name, request) => {
    const res = await request();
    await res.arrayBuffer();

    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('ratelimit')).toMatch(/^"api"; r=\d+; t=\d+/);
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"api"; q=12; w=60; pk=:/);
  });
});

describe('the /api limit, on content answers that do not show it', async () => {
  const bff = await startBff(stack.upstream.api, stack.clinic, { apiRateLimit: { limit: 3, windowMs: 60_000 } });

  it('still counts every content request: the fourth is 429, with its headers', async () => {
    for (const path of ['/treatments', '/content', '/dentists']) {
      const answer = await rawGet(`${bff.api}${path}`, {});
      expect(answer.status, path).toBe(200);
      expect(perClient(answer), path).toEqual([]);
    }

    const refused = await rawGet(`${bff.api}/treatments`, {});

    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body.toString())).toEqual({ success: false, message: expect.any(String), error_code: 'rate_limited' });
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers.ratelimit).toMatch(/^"api"; r=0; t=\d+/);
    expect(refused.headers['ratelimit-policy']).toMatch(/^"api"; q=3; w=60; pk=:/);
  });
});
