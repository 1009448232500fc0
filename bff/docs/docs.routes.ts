import { Router } from 'express';
import { removePerClientHeaders } from '../../platform/rate-limit-headers.js';
import { buildBffOpenApiDocument } from './openapi.js';

/** GET /api/openapi.json: the BFF's own OpenAPI document, generated once at start-up. */
export function bffDocsRoutes(): Router {
  const document = JSON.stringify(buildBffOpenApiDocument());
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    // Public, as the content is: counted by the /api limit, but carrying no client's own limit state.
    removePerClientHeaders(res);
    res.type('application/json').set('Cache-Control', 'public, max-age=300').send(document);
  });
  return router;
}
