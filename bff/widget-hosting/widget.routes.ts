import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Router, type Request, type Response } from 'express';
import { notFound } from '../../contract/errors.js';
import { chooseEncoding, contentEtag, ENCODINGS } from './precompressed.js';

/** The stable entry name clinics paste into their pages: the loader (vite.config.ts). */
export const WIDGET_ENTRY = 'clinic-booking.js';

/** The widget's code under its content hash, beside the loader: clinic-booking-<hash>.js. */
const HASHED_MODULE = /^clinic-booking-[A-Za-z0-9_-]+\.js$/;
/** A language pack the module imports when a page uses that language: i18n-<lang>-<hash>.js. */
const LANGUAGE_PACK = /^i18n-[a-z]{2,3}-[A-Za-z0-9_-]+\.js$/;
/** What the loader imports: `export * from './clinic-booking-<hash>.js';`. */
const LOADER_IMPORT = /from\s*['"]\.\/(clinic-booking-[A-Za-z0-9_-]+\.js)['"]/;

/** A release reaches every site within minutes; past that, a stale loader may serve a day while it is revalidated. */
const LOADER_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';
const JAVASCRIPT = 'text/javascript; charset=utf-8';

/**
 * /widget: the loader at the stable name, and the hashed module it imports.
 * Any site may load both (module scripts need CORS).
 *
 * - GET /widget/clinic-booking.js, the loader (a few dozen bytes): cached for
 *   five minutes, then revalidated by its ETag (304 when unchanged).
 * - GET /widget/clinic-booking-<hash>.js, the widget's code: cached for a year
 *   as immutable; brotli or gzip as Accept-Encoding allows, from the copies the
 *   build wrote (`Vary: Accept-Encoding`). A hash that is no longer there (a
 *   loader cached from before the last release) is redirected, uncached, to
 *   the current module, so no page breaks during a release.
 * - GET /widget/i18n-<lang>-<hash>.js, a language pack the module imports: the
 *   same, without the redirect (the module that named it falls back to English).
 */
export function widgetRoutes(widgetDir: string): Router {
  const dir = resolve(widgetDir);
  const openToEveryOrigin = (res: Response) => {
    // Cross-Origin-Resource-Policy: cross-origin comes from widgetSecurityHeaders.
    res.set('Access-Control-Allow-Origin', '*');
  };
  const readLoader = async (): Promise<Buffer> => {
    try {
      return await readFile(join(dir, WIDGET_ENTRY));
    } catch {
      throw notFound('Widget bundle (run npm run build)');
    }
  };

  const router = Router();
  router.get(`/${WIDGET_ENTRY}`, async (req, res) => {
    const loader = await readLoader();
    openToEveryOrigin(res);
    res.set({ 'Cache-Control': LOADER_CACHE_CONTROL, ETag: contentEtag(loader) });
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.type(JAVASCRIPT).send(loader);
  });

  router.get('/:file', async (req: Request<{ file: string }>, res, next) => {
    const { file } = req.params;
    const pack = LANGUAGE_PACK.test(file);
    if (!HASHED_MODULE.test(file) && !pack) return next();
    openToEveryOrigin(res);
    res.vary('Accept-Encoding');
    const path = join(dir, file);
    if (!existsSync(path)) {
      if (pack) return next();
      const current = LOADER_IMPORT.exec((await readLoader()).toString('utf8'))?.[1];
      if (!current || current === file || !existsSync(join(dir, current))) return next();
      res.set('Cache-Control', 'no-store').redirect(302, current);
      return;
    }
    const coding = chooseEncoding(req.get('accept-encoding'));
    const variant = ENCODINGS.find((encoding) => encoding.coding === coding && existsSync(path + encoding.suffix));
    // send() keeps a Content-Type already set, rather than guessing one from .br or .gz.
    res.type(JAVASCRIPT);
    if (variant) res.set('Content-Encoding', variant.coding);
    res.sendFile(variant ? path + variant.suffix : path, { maxAge: '365d', immutable: true });
  });
  return router;
}
