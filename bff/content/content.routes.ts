import { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import { IdParam } from '../../contract/index.js';
import { notFound } from '../../contract/errors.js';
import { ReadBudgetSpent } from '../upstream/read-budget.js';
import { chooseEncoding } from '../widget-hosting/precompressed.js';
import type { CachedAnswer, ContentCache } from './content-cache.js';
import { CONTENT_BUNDLE_PATH } from '../../contract/rules/bff-api.js';
import { CONTENT_BUNDLE, DENTISTS, ORGANIZATION, TREATMENTS, WEBSITE, type ContentResource } from './resources.js';

/**
 * GET /api/organization, /api/website, /api/treatments, /api/treatments/:id
 * and /api/dentists, and all four at once from GET /api/content: sanitised,
 * cached, with ETag and Cache-Control so browsers and any CDN in front can
 * cache too. A treatment by id comes from
 * the cached list, so no id, known or made up, costs an upstream call.
 */
export function contentRoutes(cache: ContentCache, ttlMs: number, maxStaleMs: number): Router {
  const cacheControl = [
    'public',
    `max-age=${Math.floor(ttlMs / 1000)}`,
    `stale-while-revalidate=${Math.floor(ttlMs / 1000)}`,
    `stale-if-error=${Math.floor(maxStaleMs / 1000)}`,
  ].join(', ');

  const serve = (resource: ContentResource, upstreamPath: (req: Request) => string) => async (req: Request, res: Response) => {
    send(req, res, await cache.get(upstreamPath(req), resource), cacheControl);
  };

  const router = Router();
  router.get('/organization', serve(ORGANIZATION, () => '/organization'));
  router.get('/website', serve(WEBSITE, () => '/website'));
  router.get('/treatments', serve(TREATMENTS, () => '/treatments'));
  router.get('/treatments/:id', async (req, res) => {
    const id = IdParam.safeParse(req.params.id);
    const treatment = id.success ? await cache.getItem('/treatments', TREATMENTS, id.data) : undefined;
    if (!treatment) throw notFound('Treatment');
    send(req, res, treatment, cacheControl);
  });
  router.get('/dentists', serve(DENTISTS, () => '/dentists'));
  router.get(CONTENT_BUNDLE_PATH, async (req, res) => {
    send(req, res, await cache.getCombined(CONTENT_BUNDLE), cacheControl);
  });
  router.use(retryAfterWhenBudgetSpent);
  return router;
}

/** A content miss refused by the read budget is 503 upstream_busy (the error handler); this adds when to retry. */
const retryAfterWhenBudgetSpent: ErrorRequestHandler = (err, _req, res, next) => {
  if (err instanceof ReadBudgetSpent && !res.headersSent) res.set('Retry-After', String(err.retryAfterSeconds));
  next(err);
};

/**
 * A cached answer with its ETag and Cache-Control, 304 to a matching
 * If-None-Match, and otherwise in the best coding Accept-Encoding allows
 * among those the cache holds for it (brotli, gzip, or plain).
 */
function send(req: Request, res: Response, answer: CachedAnswer, cacheControl: string): void {
  res.set({ ETag: answer.etag, 'Cache-Control': cacheControl });
  res.vary('Origin').vary('Accept-Encoding');
  if (answer.status === 200 && req.fresh) {
    res.status(304).end();
    return;
  }
  const coding = chooseEncoding(req.get('accept-encoding'));
  const encoded = coding === 'identity' ? undefined : answer.encoded[coding];
  if (coding !== 'identity' && encoded) res.set('Content-Encoding', coding);
  res.status(answer.status).type('application/json').send(encoded ?? answer.body);
}
