import { ORIGIN_CHECK_PATH, OriginCheckResponse } from '../../contract/bff.js';
import { declaration, served, type AnyOperation } from '../../platform/operation.js';
import { json, sharedAnswers, tagged } from './answers.js';
import type { OriginMatcher } from './origin-matcher.js';

/** What GET /api/origin-check declares: the same for every site. */
const CHECK_ORIGIN = declaration({
  id: 'checkOrigin',
  method: 'get',
  path: ORIGIN_CHECK_PATH,
  docs: {
    ...tagged('Embedding'),
    summary: "Whether this page's origin may use this API",
    description:
      "Yes or no for the request's own Origin, and nothing else: no list, no other origin. Any origin may read the " +
      'answer (CORS `*`): the widget asks it when its content request fails unreadably, and on a page this API ' +
      "refuses it logs the answer's message, which names the origin and the setting to change. Counted by the " +
      'per-IP limit; never cached.',
  },
  // On every answer, its 429 excepted (the limit answers before it): a refused page must be able to read it.
  answerHeaders: { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' },
  responses: {
    '200': { description: "Whether the request's origin is allowed.", ...json(OriginCheckResponse) },
    '429': sharedAnswers.rateLimited,
    '500': sharedAnswers.internalError,
  },
});

/** An origin as the message repeats it: no longer than RefusedOrigins logs one. */
const MAX_ORIGIN_CHARS = 200;

/**
 * GET /api/origin-check: whether a page on the request's Origin gets this
 * site's answers, by the matcher its CORS uses (ALLOWED_ORIGINS, a site's
 * allowed origins, PUBLIC_ORIGIN). It tells only what any client learns
 * already by sending that Origin to any other path and reading the CORS
 * headers: a page the BFF refuses cannot read those, and this is the one
 * answer it can. The message repeats the origin the client sent and says
 * where it is allowed (the site's id is in the path already); it is written
 * here, not in the widget, whose module is held to 25 KiB as sent. A request
 * without Origin, or a browser's same-origin one, needs no CORS: allowed.
 *
 * `siteId`: the database site this API is, absent for the default site.
 */
export function originCheckOperation(allowed: OriginMatcher, siteId?: string): AnyOperation {
  return served(CHECK_ORIGIN, {
    handle(_input, req, res) {
      const origin = req.headers.origin?.slice(0, MAX_ORIGIN_CHARS);
      const yes = origin === undefined || req.headers['sec-fetch-site'] === 'same-origin' || allowed(origin);
      const answer: OriginCheckResponse = { success: true, message: messageFor(origin, yes, siteId), data: { allowed: yes } };
      res.vary('Origin').json(answer);
    },
  });
}

function messageFor(origin: string | undefined, allowed: boolean, siteId: string | undefined): string {
  if (origin === undefined) return 'No Origin: a same-origin or non-browser request needs no CORS';
  if (allowed) return `${origin} may use this API`;
  if (!siteId) return `${origin} is not in this BFF's ALLOWED_ORIGINS: add it there to use the widget on that page`;
  return `${origin} is not among the origins of site ${siteId}: add it with npm run bff -- sites set-origins --site ${siteId} --origins <its origins>,${origin}`;
}
