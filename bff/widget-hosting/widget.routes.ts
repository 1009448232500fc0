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
/**
 * The parts the module loads only when asked for (the manage view and its
 * languages, the rarer failure sentences, a booking's calendar file, the
 * clinic's structured data): a missing one is 404, never the
 * redirect to the current module, which is not what the import wants (the
 * module that asked says so in its own words).
 */
const ON_DEMAND_PART = /^clinic-booking-(?:manage|failures|calendar|seo)(?:-[a-z]{2})?-[A-Za-z0-9_-]+\.js$/;

/** What the loader imports: `export * from './clinic-booking-<hash>.js';`. */
const LOADER_IMPORT = /from\s*['"]\.\/(clinic-booking-[A-Za-z0-9_-]+\.js)['"]/;

/**
 * A release reaches every site within minutes; past that, a stale loader may serve a day while it is
 * revalidated. No `public`: an answer with a max-age and no Authorization is shared-cacheable already.
 */
const LOADER_CACHE_CONTROL = 'max-age=300, stale-while-revalidate=86400';
/** The module, its packs: named by their content, so never revalidated (no Last-Modified, no ETag). */
const IMMUTABLE_CACHE_CONTROL = 'max-age=31536000, immutable';
/**
 * No charset: both files are module scripts, which browsers always decode as UTF-8 whatever the
 * header says. Set with setHeader, which Express's res.type and res.set would give one.
 */
const JAVASCRIPT = 'text/javascript';

/**
 * The widget's files go out with only the headers that govern a script, since Lighthouse counts each
 * header byte in the widget's 25 KiB (docs/performance.md). The request logger's X-Request-Id names a
 * log line for someone reporting a failed call; a script that loaded has nothing to report, and its
 * log line keeps the id. Failures (404, redirects) keep the header.
 */
function asScript(res: Response): Response {
  res.removeHeader('X-Request-Id');
  return res.setHeader('Content-Type', JAVASCRIPT);
}

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
 * - GET /widget/i18n-<lang>-<hash>.js, a language pack the module imports, and
 *   clinic-booking-manage-…, -failures-…, -calendar-…, -seo-…, the parts it loads on
 *   demand: the same, without the redirect (the module that named a missing
 *   one falls back: English, a generic sentence, the manage view's error, no
 *   "Add to calendar", no structured data).
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
    asScript(res);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.send(loader);
  });

  router.get('/:file', async (req: Request<{ file: string }>, res, next) => {
    const { file } = req.params;
    const pack = LANGUAGE_PACK.test(file);
    if (!HASHED_MODULE.test(file) && !pack) return next();
    openToEveryOrigin(res);
    res.vary('Accept-Encoding');
    const path = join(dir, file);
    if (!existsSync(path)) {
      if (pack || ON_DEMAND_PART.test(file)) return next();
      const current = LOADER_IMPORT.exec((await readLoader()).toString('utf8'))?.[1];
      if (!current || current === file || !existsSync(join(dir, current))) return next();
      res.set('Cache-Control', 'no-store').redirect(302, current);
      return;
    }
    const coding = chooseEncoding(req.get('accept-encoding'));
    const variant = ENCODINGS.find((encoding) => encoding.coding === coding && existsSync(path + encoding.suffix));
    // send() keeps a Content-Type already set, rather than guessing one from .br or .gz.
    asScript(res).setHeader('Cache-Control', IMMUTABLE_CACHE_CONTROL);
    if (variant) res.set('Content-Encoding', variant.coding);
    // Byte ranges of a compressed copy serve no browser's script load: no Accept-Ranges either.
    res.sendFile(variant ? path + variant.suffix : path, { cacheControl: false, lastModified: false, acceptRanges: false });
  });
  return router;
}
