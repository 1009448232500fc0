import type { Request, RequestHandler } from 'express';

/** What a preflight may ask for, and what a page may read of an answer: the same strings on every request. */
const ALLOW_METHODS = ['GET', 'POST'].join(',');
const ALLOW_HEADERS = ['Content-Type', 'Idempotency-Key', 'If-None-Match'].join(',');
// Deprecation, Sunset and Link: a client of the deprecated GET status lookup can see that it is.
const EXPOSE_HEADERS = ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Idempotent-Replayed', 'Deprecation', 'Sunset', 'Link'].join(',');
const MAX_AGE_SECONDS = String(600);

/**
 * CORS for /api: only the clinic sites in ALLOWED_ORIGINS and the BFF's own
 * origin get CORS headers; any other origin (or none) gets none, so its
 * browser keeps the answer from its page. Preflight is answered here, 204.
 *
 * The headers the `cors` package sent for this configuration, with every
 * value but the origin itself fixed once at start-up: cors rebuilt its
 * options and joined its lists on every request, and a request without an
 * Origin header (no browser, or a same-origin GET) now costs one lookup.
 */
export function apiCors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  const isAllowed = (origin: string, req: Request) => allowed.has(origin) || origin === `${req.protocol}://${req.get('host') ?? ''}`;
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (!origin || !isAllowed(origin, req)) {
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
