import { describe, expect, it } from 'vitest';
import { startBff, startStack } from '../support/bff-harness.js';

const ALLOWED = 'https://clinic.example';
const EXPOSED = 'ETag,Retry-After,RateLimit,RateLimit-Policy,Idempotent-Replayed,Deprecation,Sunset,Link';

const stack = await startStack();

/** The CORS headers (and Vary, Content-Length) of an answer, by name. */
const corsHeaders = (res: Response) =>
  Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary' || name === 'content-length'));

describe('the CORS headers of /api, exactly', () => {
  it('answers a preflight from an allowed origin 204 with the fixed lists, a 10-minute max age and no body', async () => {
    const res = await fetch(`${stack.bff.api}/appointments/book`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });

    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(corsHeaders(res)).toEqual({
      'access-control-allow-origin': ALLOWED,
      vary: 'Origin',
      'access-control-allow-methods': 'GET,POST',
      'access-control-allow-headers': 'Content-Type,Idempotency-Key,If-None-Match',
      'access-control-max-age': '600',
      'access-control-expose-headers': EXPOSED,
      'content-length': '0',
    });
  });

  it('gives an answer to an allowed origin its origin and the exposed headers, and no preflight-only header', async () => {
    const res = await fetch(`${stack.bff.api}/organization`, { headers: { origin: ALLOWED } });
    await res.arrayBuffer();

    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSED);
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(res.headers.get('access-control-max-age')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('gives a request without Origin no CORS header, and a preflight without Origin no 204', async () => {
    const get = await fetch(`${stack.bff.api}/organization`);
    await get.arrayBuffer();
    const preflight = await fetch(`${stack.bff.api}/appointments/book`, { method: 'OPTIONS' });
    await preflight.arrayBuffer();

    expect([...get.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(preflight.status).not.toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows PUBLIC_ORIGIN exactly, and not the same host on another port', async () => {
    const bff = await startBff(stack.upstream.api, stack.clinic, { publicOrigin: 'https://book.clinic.example' });
    try {
      const own = await fetch(`${bff.api}/organization`, { headers: { origin: 'https://book.clinic.example' } });
      await own.arrayBuffer();
      const otherPort = await fetch(`${bff.api}/organization`, { headers: { origin: 'https://book.clinic.example:8443' } });
      await otherPort.arrayBuffer();

      expect(own.headers.get('access-control-allow-origin')).toBe('https://book.clinic.example');
      expect(otherPort.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await bff.close();
    }
  });
});
