import { OpenApiDocument } from '../../contract/bff.js';
import { declaration, served, type AnyOperation } from '../../platform/operation.js';
import { removePerClientHeaders } from '../../platform/fast-http/rate-limit-headers.js';
import { json, sharedAnswers, tagged } from '../http/answers.js';
import { buildBffOpenApiDocument } from './openapi.js';

/** What GET /api/openapi.json declares: the same for every site. */
const GET_OPENAPI_DOCUMENT = declaration({
  id: 'getOpenApiDocument',
  method: 'get',
  path: '/openapi.json',
  docs: {
    ...tagged('Documentation'),
    summary: 'This OpenAPI document',
    description: 'Generated from the operations this BFF serves; cached for five minutes.',
  },
  responses: {
    '200': { description: 'The document.', ...json(OpenApiDocument) },
    '429': sharedAnswers.rateLimited,
    '500': sharedAnswers.internalError,
  },
});

/**
 * GET /api/openapi.json: the BFF's own OpenAPI document, of `operations` and
 * of itself, generated once, when first asked for. Not at start-up: every
 * site has this operation, and building the document took about 15 ms and
 * holds its text, which a BFF of 1,000 sites, whose documents are rarely
 * read, should not pay for each site before it serves (bench/sites.bench.mjs).
 */
export function docsOperation(operations: readonly AnyOperation[], shared: SharedDocument = {}): AnyOperation {
  let document: string | undefined;
  const getOpenApiDocument = served(GET_OPENAPI_DOCUMENT, {
    handle(_input, _req, res) {
      // Public, as the content is: counted by the /api limit, but carrying no client's own limit state.
      removePerClientHeaders(res);
      document ??= shared.text ??= JSON.stringify(buildBffOpenApiDocument([...operations, getOpenApiDocument]));
      res.type('application/json').set('Cache-Control', 'public, max-age=300').send(document);
    },
  });
  return getOpenApiDocument;
}

/**
 * The document every site's API serves: each site has the same operations,
 * so the first site asked generates its text and every other reuses it (a
 * thousand sites hold one copy, and generate it once).
 */
export interface SharedDocument {
  text?: string;
}
