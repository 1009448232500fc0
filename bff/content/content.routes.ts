import type { Request, Response } from 'express';
import { TreatmentPathParams, TreatmentResponse } from '../../contract/index.js';
import { notFound } from '../../contract/errors.js';
import { CONTENT_BUNDLE_PATH, ContentBundleResponse } from '../../contract/bff.js';
import { declaration, served, type AnyOperation, type Declaration } from '../../platform/operation.js';
import { removePerClientHeaders } from '../../platform/fast-http/rate-limit-headers.js';
import { chooseEncoding } from '../widget-hosting/precompressed.js';
import { CacheHeaders, commonErrors, errorAnswer, IfNoneMatch, json, sharedAnswers, tagged } from '../http/answers.js';
import type { CachedAnswer, ContentCache } from './content-cache.js';
import { AnswerCodings } from './answer-codings.js';
import { contentBundle, DENTISTS, ORGANIZATION, TREATMENTS, WEBSITE, type ContentOffers, type ContentResource } from './resources.js';

/** What the document says of every content answer but the bundle. */
const CONTENT_DESCRIPTION =
  'The clinic API answer, validated, with unsafe URLs blanked and HTML sanitised; cached by the BFF ' +
  'and served stale (within a bound) while the clinic system is down.';

/** What a content resource's own GET declares: the same for every site. */
const resourceDeclaration = (resource: ContentResource, { id, summary }: { id: string; summary: string }) =>
  declaration({
    id,
    method: 'get',
    path: resource.path,
    docs: { ...tagged('Content'), summary, description: CONTENT_DESCRIPTION },
    request: { headers: IfNoneMatch },
    responses: {
      '200': { description: `The ${resource.name.toLowerCase()} answer.`, headers: CacheHeaders, ...json(resource.response) },
      '304': sharedAnswers.notModified,
      ...commonErrors,
    },
  });

const GET_ORGANIZATION = resourceDeclaration(ORGANIZATION, { id: 'getOrganization', summary: 'The clinic profile with live statistics' });
const GET_WEBSITE = resourceDeclaration(WEBSITE, { id: 'getWebsite', summary: 'The website settings, HTML sanitised' });
const LIST_TREATMENTS = resourceDeclaration(TREATMENTS, { id: 'listTreatments', summary: 'Active treatments of the clinic' });
const LIST_DENTISTS = resourceDeclaration(DENTISTS, { id: 'listDentists', summary: 'Dentists of the clinic' });

const GET_TREATMENT = declaration({
  id: 'getTreatment',
  method: 'get',
  path: `${TREATMENTS.path}/:id`,
  docs: { ...tagged('Content'), summary: 'One active treatment', description: CONTENT_DESCRIPTION },
  // An id that is not an escape-decodable number is no treatment either: 404.
  request: { params: TreatmentPathParams, notFound: 'Treatment', headers: IfNoneMatch },
  responses: {
    '200': { description: 'The treatment answer.', headers: CacheHeaders, ...json(TreatmentResponse) },
    '304': sharedAnswers.notModified,
    '404': { ...errorAnswer('not_found: no active treatment of this clinic has that id.'), headers: CacheHeaders },
    ...commonErrors,
  },
});

const GET_CONTENT = declaration({
  id: 'getContent',
  method: 'get',
  path: CONTENT_BUNDLE_PATH,
  docs: {
    ...tagged('Content'),
    summary: 'The organization, website, treatments and dentists in one answer',
    description:
      'The four content answers in one round trip, under one ETag: each as its own operation answers it, unwrapped ' +
      "from its envelope (getOrganization's data, getWebsite's site, the lists' data). Built from the same cached " +
      'copies as those operations, so it costs no upstream call of its own and is never newer or older than they are. ' +
      "Beside them, `offers`: what the BFF offers this site's patients (a confirmation e-mail), from the site's settings.",
  },
  request: { headers: IfNoneMatch },
  responses: {
    '200': { description: 'The clinic content.', headers: CacheHeaders, ...json(ContentBundleResponse) },
    '304': sharedAnswers.notModified,
    '404': { ...errorAnswer('not_found: the clinic system has no organization or website for this clinic.'), headers: CacheHeaders },
    ...commonErrors,
  },
});

/**
 * GET /api/organization, /api/website, /api/treatments, /api/treatments/:id
 * and /api/dentists, and all four at once from GET /api/content: sanitised,
 * cached, with ETag and Cache-Control so browsers and any CDN in front can
 * cache too. Each resource's path is its own (the same upstream). A treatment
 * by id comes from the cached list, so no id, known or made up, costs an
 * upstream call. Each answers at once from a fresh cached copy, and waits for
 * the cache only otherwise. The bundle carries the site's `offers` besides.
 */
export function contentOperations(cache: ContentCache, ttlMs: number, maxStaleMs: number, offers: ContentOffers): AnyOperation[] {
  const cacheControl = [
    'public',
    `max-age=${Math.floor(ttlMs / 1000)}`,
    `stale-while-revalidate=${Math.floor(ttlMs / 1000)}`,
    `stale-if-error=${Math.floor(maxStaleMs / 1000)}`,
  ].join(', ');
  const send = answerSender(new AnswerCodings(), cacheControl);
  const bundle = contentBundle(offers);

  /** GET of one resource at its own path. */
  const resourceOperation = (declared: Declaration, resource: ContentResource): AnyOperation =>
    served(declared, {
      handle: (_input, req, res) => whenCached(cache.fresh(resource), () => cache.get(resource), (answer) => send(req, res, answer)),
    });

  return [
    resourceOperation(GET_ORGANIZATION, ORGANIZATION),
    resourceOperation(GET_WEBSITE, WEBSITE),
    resourceOperation(LIST_TREATMENTS, TREATMENTS),
    served(GET_TREATMENT, {
      handle: ({ params }, req, res) =>
        whenCached(cache.fresh(TREATMENTS), () => cache.get(TREATMENTS), (list) => {
          const treatment = cache.item(list, params.id);
          if (!treatment) throw notFound('Treatment');
          send(req, res, treatment);
        }),
    }),
    resourceOperation(LIST_DENTISTS, DENTISTS),
    served(GET_CONTENT, {
      handle: (_input, req, res) =>
        whenCached(cache.freshCombined(bundle), () => cache.getCombined(bundle), (answer) => send(req, res, answer)),
    }),
  ];
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
 * A HEAD gets the same headers and no body (res.send leaves it out).
 */
function answerSender(codings: AnswerCodings, cacheControl: string) {
  return (req: Request, res: Response, answer: CachedAnswer): void => {
    // Public, so a CDN may give it (and a 304's headers) to everyone: nothing of this client's limit state.
    removePerClientHeaders(res);
    const { body, coding, etag } = codings.representation(answer, chooseEncoding(req.headers['accept-encoding']));
    res.vary('Origin').vary('Accept-Encoding').set({ ETag: etag, 'Cache-Control': cacheControl });
    // Checked here rather than left to res.send, which would keep Content-Encoding on the 304: a 304 carries
    // its validator and caching headers, no representation metadata (RFC 9110 15.4.5).
    if (answer.status === 200 && req.fresh) {
      res.status(304).end();
      return;
    }
    if (coding !== 'identity') res.set('Content-Encoding', coding);
    res.status(answer.status).type('json').send(body);
  };
}
