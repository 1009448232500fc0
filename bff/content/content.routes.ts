import type { Request, RequestHandler, Response } from 'express';
import { IdParam } from '../../contract/index.js';
import { notFound } from '../../contract/errors.js';
import type { CachedAnswer, ContentCache } from './content-cache.js';
import { AnswerHeaders, encodingChooser, setHeaders, varyOnOriginAndEncoding } from './answer-headers.js';
import { CONTENT_BUNDLE_PATH } from '../../contract/rules/bff-api.js';
import { RouteTable } from '../../platform/route-table.js';
import { removePerClientHeaders } from '../../platform/rate-limit-headers.js';
import { CONTENT_BUNDLE, DENTISTS, ORGANIZATION, TREATMENTS, WEBSITE, type ContentResource } from './resources.js';

/** A content route: answers the request, at once or through a promise. */
type ContentRoute = (req: Request, res: Response, params: Record<string, string | undefined>) => void | Promise<void>;

/**
 * GET /api/organization, /api/website, /api/treatments, /api/treatments/:id
 * and /api/dentists, and all four at once from GET /api/content: sanitised,
 * cached, with ETag and Cache-Control so browsers and any CDN in front can
 * cache too. A treatment by id comes from
 * the cached list, so no id, known or made up, costs an upstream call.
 *
 * The busiest paths of the BFF, so one handler finds the route in one
 * lookup (RouteTable, matched as Express's router matches: any letter case,
 * one trailing slash, HEAD as GET) instead of a Router trying a layer per
 * route; other methods and paths go on to the next handler.
 */
export function contentRoutes(cache: ContentCache, ttlMs: number, maxStaleMs: number): RequestHandler {
  const cacheControl = [
    'public',
    `max-age=${Math.floor(ttlMs / 1000)}`,
    `stale-while-revalidate=${Math.floor(ttlMs / 1000)}`,
    `stale-if-error=${Math.floor(maxStaleMs / 1000)}`,
  ].join(', ');
  const send = answerSender(new AnswerHeaders(cacheControl));

  // Each route answers at once from a fresh cached copy, and waits for the cache only otherwise.
  const serve = (resource: ContentResource): ContentRoute => (req, res) =>
    whenCached(cache.fresh(resource), () => cache.get(resource), (answer) => send(req, res, answer));

  const routes = new RouteTable<ContentRoute>([
    [ORGANIZATION.path, serve(ORGANIZATION)],
    [WEBSITE.path, serve(WEBSITE)],
    [TREATMENTS.path, serve(TREATMENTS)],
    [
      `${TREATMENTS.path}/:id`,
      (req, res, params) => {
        // An id that is not an escape-decodable number is no treatment either.
        const id = IdParam.safeParse(params.id);
        if (!id.success) throw notFound('Treatment');
        return whenCached(cache.fresh(TREATMENTS), () => cache.get(TREATMENTS), (list) => {
          const treatment = list.items?.get(id.data);
          if (!treatment) throw notFound('Treatment');
          send(req, res, treatment);
        });
      },
    ],
    [DENTISTS.path, serve(DENTISTS)],
    [
      CONTENT_BUNDLE_PATH,
      (req, res) =>
        whenCached(cache.freshCombined(CONTENT_BUNDLE), () => cache.getCombined(CONTENT_BUNDLE), (answer) => send(req, res, answer)),
    ],
  ]);

  return (req, res, next) => {
    const route = req.method === 'GET' || req.method === 'HEAD' ? routes.find(req.path) : undefined;
    if (!route) {
      next();
      return;
    }
    // A refusal of the read budget (ReadBudgetSpent) gets its Retry-After from the error handler, as every such error does.
    try {
      route.value(req, res, route.params)?.catch(next);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * `use` the cached value at once when there is one, else once `load` has it;
 * a throw or rejection reaches the caller either way.
 */
function whenCached<T>(cached: T | undefined, load: () => Promise<T>, use: (value: T) => void): void | Promise<void> {
  if (cached !== undefined) {
    use(cached);
    return;
  }
  return load().then(use);
}

/**
 * A cached answer in the best coding Accept-Encoding allows among those the
 * cache holds for it (brotli, gzip, or plain), with that representation's
 * ETag and Cache-Control; 304 when If-None-Match names that representation
 * (weak comparison, RFC 9110 13.1.2), never for the ETag of another coding.
 * The headers of each answer and coding are made once (AnswerHeaders) and the
 * bytes are written with Node's own res.end: Express's res.send would work
 * out again, per request, what the cache entry already knows (type, length,
 * freshness). A HEAD gets the same headers and no body (Node leaves the body out).
 */
function answerSender(headers: AnswerHeaders) {
  const chooseCoding = encodingChooser();
  return (req: Request, res: Response, answer: CachedAnswer): void => {
    // Public, so a CDN may give it (and a 304's headers) to everyone: nothing of this client's limit state.
    removePerClientHeaders(res);
    varyOnOriginAndEncoding(res);
    const representation = headers.representation(answer, chooseCoding(req.headers['accept-encoding']));
    // req.fresh compares If-None-Match with the ETag set here; without one there is nothing to compare.
    if (answer.status === 200 && req.headers['if-none-match'] !== undefined) {
      setHeaders(res, representation.notModified);
      if (req.fresh) {
        res.statusCode = 304;
        res.end();
        return;
      }
    }
    setHeaders(res, representation.headers);
    res.statusCode = answer.status;
    res.end(representation.body);
  };
}
