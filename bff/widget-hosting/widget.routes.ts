import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { Router, type Response } from 'express';
import { notFound } from '../../contract/errors.js';

/** The stable entry name clinics paste into their pages. */
export const WIDGET_ENTRY = 'clinic-booking.js';

/**
 * GET /widget/clinic-booking.js and its hashed chunks. Any site may load the
 * script (module scripts need CORS); the stable name is cached briefly so a
 * release reaches every site within minutes, hashed chunks forever.
 */
export function widgetRoutes(widgetDir: string): Router {
  const dir = resolve(widgetDir);
  const openToEveryOrigin = (res: Response) => {
    // Cross-Origin-Resource-Policy: cross-origin comes from widgetSecurityHeaders.
    res.set('Access-Control-Allow-Origin', '*');
  };

  const router = Router();
  router.get(`/${WIDGET_ENTRY}`, (_req, res) => {
    const entry = join(dir, WIDGET_ENTRY);
    if (!existsSync(entry)) throw notFound('Widget bundle (run npm run build)');
    openToEveryOrigin(res);
    res.set('Cache-Control', 'public, max-age=300, stale-while-revalidate=86400');
    res.sendFile(entry);
  });
  router.use(
    '/chunks',
    express.static(join(dir, 'chunks'), {
      index: false,
      fallthrough: true,
      immutable: true,
      maxAge: '365d',
      setHeaders: (res) => openToEveryOrigin(res as unknown as Response),
    }),
  );
  return router;
}
