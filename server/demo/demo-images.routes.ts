import { Router } from 'express';
import { demoImage } from './demo-images.js';
import { notFound } from '../../contract/errors.js';

/** GET /assets/demo/{name}.svg: the demo clinic's pictures, served by this server itself. */
export function demoImageRoutes(): Router {
  const router = Router();
  router.get('/:name', (req, res) => {
    const svg = demoImage(req.params.name);
    if (!svg) throw notFound('Image');
    res
      .type('image/svg+xml')
      .set('Cache-Control', 'public, max-age=86400')
      .set('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(svg);
  });
  return router;
}
