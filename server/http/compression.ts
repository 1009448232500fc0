import compression from 'compression';
import type { RequestHandler } from 'express';

/**
 * br, gzip or deflate answers over 1 KB for clients that accept one: the docs
 * page's Swagger UI bundle (1.7 MB), the OpenAPI document, long lists. Small
 * JSON stays as is. A request with no Accept-Encoding at all can only be
 * answered as is, so it skips the compression middleware (which wraps every
 * write of the answer to decide that late) and gets just the Vary it would
 * have set, so a shared cache still keeps the codings apart.
 */
export function compressionWhenAccepted(): RequestHandler {
  const compress = compression({ threshold: 1024 });
  return (req, res, next) => {
    if (req.headers['accept-encoding'] !== undefined) {
      compress(req, res, next);
      return;
    }
    res.setHeader('Vary', 'Accept-Encoding');
    next();
  };
}
