import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router } from 'express';
import type { AnyOperation } from '../../platform/operation.js';
import { buildOpenApiDocument } from './openapi.js';

/** Swagger UI's assets, served from node_modules: the docs page needs no CDN. */
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The page, with asset paths absolute under the router's mount point, so /docs and /docs/ both work. */
const docsPage = (base: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Clinic Integration REST API v1 reference</title>
  <link rel="stylesheet" href="${base}/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${base}/docs/assets/swagger-ui-bundle.js"></script>
  <script src="${base}/docs/init.js"></script>
</body>
</html>`;

// A separate file, not an inline script, so the page runs under a strict CSP.
const docsInit = (base: string) =>
  `window.ui = SwaggerUIBundle({ url: '${base}/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

/** GET /openapi.json, the document of `operations`, and the human reference at GET /docs. */
export function docsRoutes(operations: readonly AnyOperation[]): Router {
  const document = JSON.stringify(buildOpenApiDocument(operations));
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'public, max-age=300').send(document);
  });
  router.get('/docs', (req, res) => {
    res.type('html').send(docsPage(req.baseUrl));
  });
  router.get('/docs/init.js', (req, res) => {
    res.type('application/javascript').send(docsInit(req.baseUrl));
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  return router;
}
