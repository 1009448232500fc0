import { describe, expect, it } from 'vitest';
import { startStack } from '../support/bff-harness.js';

const stack = await startStack({ bff: { demoPage: true } });

describe('security headers on every BFF answer', () => {
  it.each([
    ['an /api content answer', '/api/treatments'],
    ['an /api 404', '/api/no-such-thing'],
    ['the widget script', '/widget/clinic-booking.js'],
    ['a /widget 404', '/widget/chunks/missing.js'],
  ])('sends nosniff, no CSP and Cross-Origin-Resource-Policy: cross-origin on %s', async (_name, path) => {
    const res = await fetch(`${stack.bff.baseUrl}${path}`);
    await res.arrayBuffer();

    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it('sends the widget script only the headers that govern a script, none of those for documents', async () => {
    const res = await fetch(`${stack.bff.baseUrl}/widget/clinic-booking.js`);
    await res.arrayBuffer();

    // HSTS is the host's, learnt from /api's answers (below): on the script it would only add bytes.
    expect(res.headers.get('strict-transport-security')).toBeNull();
    for (const documentHeader of ['x-frame-options', 'cross-origin-opener-policy', 'referrer-policy', 'origin-agent-cluster', 'x-xss-protection']) {
      expect(res.headers.get(documentHeader), documentHeader).toBeNull();
    }
  });

  it('sends HSTS on /api, which every page that runs the widget asks next', async () => {
    const res = await fetch(`${stack.bff.baseUrl}/api/treatments`);
    await res.arrayBuffer();

    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });

  it.each([
    ['the demo page', '/'],
    ['/healthz', '/healthz'],
    ['a 404 outside /api and /widget', '/nowhere'],
  ])('sends nosniff and a strict CSP on %s', async (_name, path) => {
    const res = await fetch(`${stack.bff.baseUrl}${path}`);
    await res.arrayBuffer();

    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  // WebKit upgraded the demo's widget script to https on a page served over plain http (npm start) and showed only the fallback.
  it.each([
    ['the demo page', '/'],
    ['a 404 outside /api and /widget', '/nowhere'],
  ])('asks no browser to upgrade the requests of %s to https', async (_name, path) => {
    const res = await fetch(`${stack.bff.baseUrl}${path}`);
    await res.arrayBuffer();
    const directives = (res.headers.get('content-security-policy') ?? '').split(';').map((directive) => directive.trim().split(' ')[0]);

    expect(directives).toContain('script-src');
    expect(directives).not.toContain('upgrade-insecure-requests');
  });

  it("lets the demo page's widget start its blob: worker (ICU warm-up) and nothing else from blob:", async () => {
    const res = await fetch(`${stack.bff.baseUrl}/`);
    await res.arrayBuffer();
    const csp = res.headers.get('content-security-policy') ?? '';

    expect(csp).toMatch(/(?:^|;)worker-src 'self' blob:(?:;|$)/);
    expect(csp.split(';').filter((directive) => directive.includes('blob:'))).toHaveLength(1);
  });

  it('answers a rate-limited /api request with the same headers', async () => {
    const limited = await startStack({ bff: { apiRateLimit: { limit: 1, windowMs: 60_000 } } });
    try {
      await (await fetch(`${limited.bff.api}/treatments`)).arrayBuffer();
      const res = await fetch(`${limited.bff.api}/treatments`);
      await res.arrayBuffer();

      expect(res.status).toBe(429);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    } finally {
      await limited.close();
    }
  });
});
