import helmet from 'helmet';

/**
 * helmet on every BFF answer, in three flavours by what each mount serves.
 * All three keep helmet's defaults (X-Content-Type-Options: nosniff, a strict
 * Referrer-Policy, HSTS, ...); they differ in CSP and Cross-Origin-Resource-Policy.
 */

/**
 * /api: JSON read by clinic sites on other origins (CORS decides which).
 * No CSP (a JSON answer is no document), and Cross-Origin-Resource-Policy
 * cross-origin so a page elsewhere may load it.
 */
export const apiSecurityHeaders = helmet({
  contentSecurityPolicy: false,
  crossOriginResourcePolicy: { policy: 'cross-origin' },
});

/** /widget: the script every clinic site loads from here; as for /api. */
export const widgetSecurityHeaders = apiSecurityHeaders;

const pageDirectives = {
  'img-src': ["'self'", 'data:', 'https:', 'http:'],
};

/**
 * The BFF's own pages (the demo, its CSS, health checks, 404s): a strict
 * CSP, with images from anywhere over http(s) because the demo clinic's
 * pictures come from the API server's origin.
 */
export const pageSecurityHeaders = helmet({
  contentSecurityPolicy: {
    directives: pageDirectives,
  },
});

/**
 * `npm run dev` only (WIDGET_DEV_URL): the same, plus workers from blob: URLs.
 * When the HMR websocket drops (the BFF or Vite restarted), Vite's client waits
 * for the server in a SharedWorker made from a blob: URL, then reloads the page.
 */
export const devPageSecurityHeaders = helmet({
  contentSecurityPolicy: {
    directives: { ...pageDirectives, 'worker-src': ["'self'", 'blob:'] },
  },
});
