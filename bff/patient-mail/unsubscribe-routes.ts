import { Router, type Request, type RequestHandler, type Response } from 'express';
import { logRequestAt } from '../../platform/fast-http/request-logger.js';
import { databaseErrorOf } from '../changes/database-error.js';
import { MAIL_LANGUAGES, type MailLanguage } from '../notifications/mail-language.js';
import { UNSUBSCRIBE_TOKEN_PATTERN } from './unsubscribe-link.js';
import { unsubscribePage, type UnsubscribeView } from './unsubscribe-page.js';
import type { UnsubscribeStore } from './unsubscribe-store.js';

/**
 * GET and POST /mail/unsubscribe/{token} (mounted at UNSUBSCRIBE_PATH by
 * app.ts, at the BFF's own origin: outside /api and every site's CORS and
 * origin check, since a mail provider POSTs from its servers with no Origin).
 *
 * - GET shows the page with its one button and changes nothing: mail
 *   scanners and link previews follow links.
 * - POST unsubscribes (UnsubscribeStore.unsubscribe), whatever its body: an
 *   RFC 8058 client sends `List-Unsubscribe=One-Click` form-encoded or as
 *   multipart, the page's button the same; the token is what authorises it.
 *   It answers "no more e-mails" for a token no row has too (a second click,
 *   a provider's retry): that is true of it as well, so a repeat succeeds
 *   and the answer tells nobody whether the token ever existed. Always 200.
 *
 * Each page is in the row's language; without a row, in the best of the six
 * the browser asks for (Accept-Language), else English. The token is never
 * logged: the request log writes the route's pattern (logged-paths.ts), and
 * a database failure is logged by class and code only.
 */
export function unsubscribeRoutes(store: UnsubscribeStore, limiter: RequestHandler): Router {
  const router = Router();
  router.use(limiter);
  router.get('/:token', async (req, res) => {
    const token = tokenOf(req);
    try {
      const language = token && (await store.languageOf(token));
      if (language) answer(res, 'ask', language);
      else answer(res, 'gone', askedLanguage(req));
    } catch (error) {
      failed(req, res, error);
    }
  });
  router.post('/:token', async (req, res) => {
    const token = tokenOf(req);
    try {
      const language = token && (await store.unsubscribe(token));
      answer(res, 'done', language || askedLanguage(req));
    } catch (error) {
      failed(req, res, error);
    }
  });
  return router;
}

/** The token of the path, when it can be one (a bounded URL-safe string); otherwise none, and no query is made. */
function tokenOf(req: Request): string | undefined {
  const token = req.params.token;
  return typeof token === 'string' && UNSUBSCRIBE_TOKEN_PATTERN.test(token) ? token : undefined;
}

/** The mail language the browser prefers (Accept-Language, `de-AT` matching `de`); English when it names none of them. */
function askedLanguage(req: Request): MailLanguage {
  const chosen = req.acceptsLanguages(...MAIL_LANGUAGES);
  return chosen ? (chosen as MailLanguage) : 'en';
}

function answer(res: Response, view: UnsubscribeView, language: MailLanguage, status = 200): void {
  // Never stored: a shared cache must not keep a patient's page, and its answer changes once they unsubscribe.
  res.status(status).set('Cache-Control', 'no-store').type('html').send(unsubscribePage(view, language));
}

/** The database failed: logged once here, without the token; the patient is told nothing changed. */
function failed(req: Request, res: Response, error: unknown): void {
  req.log?.error({ err: databaseErrorOf(error) }, 'unsubscribe page: the database failed');
  logRequestAt(res, 'warn');
  res.set('Retry-After', '60');
  answer(res, 'failed', askedLanguage(req), 503);
}
