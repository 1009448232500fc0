import { describe, expect, it } from 'vitest';
import { rawGet } from '../content/raw-get.js';
import { startBff, startStack } from '../support/bff-harness.js';

const ALLOWED = 'https://clinic.example';
const EVIL = 'https://evil.example';

const stack = await startStack();

const accessControlHeaders = (res: Response) => [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));

const preflight = (origin: string) =>
  fetch(`${stack.bff.api}/appointments/book`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,idempotency-key',
    },
  });

describe('CORS on /api', () => {
  it('echoes an allowed origin in Access-Control-Allow-Origin', async () => {
    const res = await fetch(`${stack.bff.api}/treatments`, { headers: { origin: ALLOWED } });

    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('refuses an Origin equal to a forged Host header: the BFF never takes its own origin from a request', async () => {
    const forged = await rawGet(`${stack.bff.api}/treatments`, { host: 'evil.example', origin: 'http://evil.example' });

    expect(forged.status).toBe(200);
    expect(Object.keys(forged.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('refuses even the address it listens on, when PUBLIC_ORIGIN does not name it', async () => {
    const res = await fetch(`${stack.bff.api}/treatments`, { headers: { origin: stack.bff.baseUrl } });

    expect(res.status).toBe(200);
    expect(accessControlHeaders(res)).toEqual([]);
  });

  it('gives any other origin no Access-Control-* header at all', async () => {
    const res = await fetch(`${stack.bff.api}/treatments`, { headers: { origin: EVIL } });

    expect(res.status).toBe(200);
    expect(accessControlHeaders(res)).toEqual([]);
  });

  it('gives an origin that only looks like an allowed one no Access-Control-* header', async () => {
    for (const origin of ['https://clinic.example.evil.example', 'http://clinic.example', 'https://clinic.example:8443', 'null']) {
      const res = await fetch(`${stack.bff.api}/treatments`, { headers: { origin } });
      expect(accessControlHeaders(res), origin).toEqual([]);
    }
  });

  it('gives another origin no Access-Control-* header on error answers either', async () => {
    const res = await fetch(`${stack.bff.api}/nope`, { headers: { origin: EVIL } });

    expect(res.status).toBe(404);
    expect(accessControlHeaders(res)).toEqual([]);
  });

  it('answers a preflight for a booking from an allowed origin with 204, POST and idempotency-key allowed', async () => {
    const res = await preflight(ALLOWED);

    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-allow-methods')?.split(',').map((m) => m.trim())).toContain('POST');
    const allowedHeaders = res.headers.get('access-control-allow-headers')?.toLowerCase().split(',').map((h) => h.trim());
    expect(allowedHeaders).toContain('idempotency-key');
    expect(allowedHeaders).toContain('content-type');
  });

  it('does not allow credentials (the BFF has no cookies to share)', async () => {
    const res = await preflight(ALLOWED);

    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('answers a preflight from another origin without Access-Control-Allow-Origin', async () => {
    const res = await preflight(EVIL);

    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(accessControlHeaders(res)).toEqual([]);
  });

  it('makes no upstream call for a preflight', async () => {
    const before = stack.upstreamHits('/appointments/book');

    await preflight(ALLOWED);
    await preflight(EVIL);

    expect(stack.upstreamHits('/appointments/book')).toBe(before);
  });
});

describe('CORS with PUBLIC_ORIGIN, the BFF’s own origin as browsers reach it', async () => {
  const PUBLIC = 'https://book.clinic.example';
  const bff = await startBff(stack.upstream.api, stack.clinic, { publicOrigin: PUBLIC });

  it('allows it beside ALLOWED_ORIGINS, whatever Host the request names', async () => {
    for (const origin of [PUBLIC, ALLOWED]) {
      const res = await rawGet(`${bff.api}/treatments`, { origin });
      expect(res.headers['access-control-allow-origin'], origin).toBe(origin);
    }
  });

  it('still refuses an Origin equal to a forged Host header', async () => {
    const forged = await rawGet(`${bff.api}/treatments`, { host: 'evil.example', origin: 'http://evil.example' });

    expect(forged.headers['access-control-allow-origin']).toBeUndefined();
  });
});
