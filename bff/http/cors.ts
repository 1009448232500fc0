import cors, { type CorsOptions } from 'cors';
import type { Request, RequestHandler } from 'express';

/**
 * CORS for /api: only the clinic sites in ALLOWED_ORIGINS and the BFF's own
 * origin get CORS headers; any other origin gets none, so its browser keeps
 * the answer from its page. Preflight is answered here.
 */
export function apiCors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return cors((req: Request, callback: (error: Error | null, options: CorsOptions) => void) => {
    const origin = req.get('origin');
    const ownOrigin = `${req.protocol}://${req.get('host') ?? ''}`;
    callback(null, {
      origin: origin !== undefined && (allowed.has(origin) || origin === ownOrigin) ? origin : false,
      methods: ['GET', 'POST'],
      allowedHeaders: ['Content-Type', 'Idempotency-Key', 'If-None-Match'],
      // Deprecation, Sunset and Link: a client of the deprecated GET status lookup can see that it is.
      exposedHeaders: ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Idempotent-Replayed', 'Deprecation', 'Sunset', 'Link'],
      maxAge: 600,
    });
  });
}
