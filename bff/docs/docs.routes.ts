import { Router } from 'express';
import { buildBffOpenApiDocument } from './openapi.js';

/** GET /api/openapi.json: the BFF's own OpenAPI document, generated once at start-up. */
export function bffDocsRoutes(): Router {
  const document = JSON.stringify(buildBffOpenApiDocument());
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'public, max-age=300').send(document);
  });
  return router;
}
