import { OpenApiDocument } from '../../contract/bff.js';
import { operation, type AnyOperation } from '../../platform/operation.js';
import { removePerClientHeaders } from '../../platform/fast-http/rate-limit-headers.js';
import { json, sharedAnswers, tagged } from '../http/answers.js';
import { buildBffOpenApiDocument } from './openapi.js';

/**
 * GET /api/openapi.json: the BFF's own OpenAPI document, of `operations` and
 * of itself, generated once (for all sites, when `shared` is given).
 */
export function docsOperation(operations: readonly AnyOperation[], shared: SharedDocument = {}): AnyOperation {
  let document = '';
  const getOpenApiDocument = operation({
    id: 'getOpenApiDocument',
    method: 'get',
    path: '/openapi.json',
    docs: {
      ...tagged('Documentation'),
      summary: 'This OpenAPI document',
      description: 'Generated at start-up from the operations this BFF serves; cached for five minutes.',
    },
    responses: {
      '200': { description: 'The document.', ...json(OpenApiDocument) },
      '429': sharedAnswers.rateLimited,
      '500': sharedAnswers.internalError,
    },
    handle(_input, _req, res) {
      // Public, as the content is: counted by the /api limit, but carrying no client's own limit state.
      removePerClientHeaders(res);
      res.type('application/json').set('Cache-Control', 'public, max-age=300').send(document);
    },
  });
  document = shared.text ??= JSON.stringify(buildBffOpenApiDocument([...operations, getOpenApiDocument]));
  return getOpenApiDocument;
}

/**
 * The document every site's API serves: each site has the same operations,
 * so the first site built generates it and every other reuses its text
 * (a site built on its first request does no generating, and a thousand
 * sites hold one copy).
 */
export interface SharedDocument {
  text?: string;
}
