import type { RequestHandler } from 'express';
import type { RefusedOrigins } from './refused-origins.js';
import { originMatcher, type OriginMatcher } from './origin-matcher.js';

/** What a preflight may ask for, and what a page may read of an answer: the same strings on every request. */
const ALLOW_METHODS = ['GET', 'POST'].join(',');
const ALLOW_HEADERS = ['Content-Type', 'Idempotency-Key', 'If-None-Match'].join(',');
// Deprecation, Sunset and Link: a client of the deprecated GET status lookup can see that it is.
const EXPOSE_HEADERS = ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Idempotent-Replayed', 'Deprecation', 'Sunset', 'Link'].join(',');
const MAX_AGE_SECONDS = String(600);

/**
 * CORS for /api: only the clinic sites in ALLOWED_ORIGINS (or a site's
 * allowed origins, wildcards included: origin-matcher.ts) and the BFF's own
 * public origin (PUBLIC_ORIGIN, when set) get CORS headers; any other origin
 * (or none) gets none, so its browser keeps the answer from its page.
 * Preflight is answered here, 204. A refused origin is logged (once an hour
 * each, `refused`), so a clinic whose embed fails sees why.
 *
 * The BFF's own origin comes from configuration, never from the request: a
 * Host header is whatever the client sent, and "Origin equals Host" let any
 * client that forges both (or a proxy or CDN that passes Host on unchecked)
 * be answered as the BFF's own page. A page served by the BFF itself needs no
 * CORS at all (its requests are same-origin), so without PUBLIC_ORIGIN only
 * ALLOWED_ORIGINS are allowed.
 *
 * The headers the `cors` package sent for this configuration, with every
 * value but the origin itself fixed once at start-up: cors rebuilt its
 * options and joined its lists on every request, and a request without an
 * Origin header (no browser, or a same-origin GET) now costs one lookup.
 */
export function apiCors(allowedOrigins: readonly string[], publicOrigin?: string, refused?: RefusedOrigins): RequestHandler {
  return corsFor(corsOriginMatcher(allowedOrigins, publicOrigin), refused);
}

/** The origins whose pages get CORS headers: a site's allowed origins, and the BFF's own public origin when set. */
export function corsOriginMatcher(allowedOrigins: readonly string[], publicOrigin?: string): OriginMatcher {
  return originMatcher(publicOrigin ? [...allowedOrigins, publicOrigin] : allowedOrigins);
}

/** apiCors for the origins `allowed` matches (corsOriginMatcher), shared with what else asks it (GET /api/origin-check). */
export function corsFor(allowed: OriginMatcher, refused?: RefusedOrigins): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (!origin || !allowed(origin)) {
      // A browser's own same-origin request (the demo page on the BFF) needs no CORS: nothing to warn about.
      if (origin && req.headers['sec-fetch-site'] !== 'same-origin') refused?.refused(origin);
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.vary('Origin');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
      res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
      res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
      res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      // Safari waits for a body on a 204 without Content-Length: 0.
      res.statusCode = 204;
      res.setHeader('Content-Length', '0');
      res.end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    next();
  };
}
