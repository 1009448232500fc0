import { createHash } from 'node:crypto';
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

/**
 * /widget: the script every clinic site loads from here. Only the headers that
 * mean something for a script: nosniff (a module is run only as JavaScript) and
 * Cross-Origin-Resource-Policy cross-origin (pages elsewhere load it).
 * The rest of helmet's set governs documents (framing, opener, referrer,
 * download prompts, origin-keyed agents), which a script is not; leaving them
 * out saves about 300 bytes on each of the two responses of every page's
 * first visit, within the widget's 25 KiB as sent (docs/performance.md).
 * HSTS is a policy for the whole host, which a browser learns from any HTTPS
 * answer of it: every page that runs the widget asks /api next, and /api's
 * answers carry it; on the script it would be 63 bytes of each response again.
 */
export const widgetSecurityHeaders = helmet({
  contentSecurityPolicy: false,
  strictTransportSecurity: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  originAgentCluster: false,
  referrerPolicy: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

/** The CSP source that allows exactly one inline `<style>` element's text (a page's own fixed CSS). */
export const cspHashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const pageDirectives = {
  // The clinic's pictures come from the BFF itself (/api/pictures); data: is the demo's favicon.
  'img-src': ["'self'", 'data:'],
  // helmet's default upgrade-insecure-requests made WebKit ask for the demo's widget script over
  // https from a page served over plain http (npm start), and fail. Behind TLS it adds nothing:
  // every URL the BFF's pages name is their own, and HSTS (on every answer) already keeps the
  // browser on https.
  'upgrade-insecure-requests': null,
  // The widget starts one throwaway worker from a blob: URL to load ICU's data off the main thread
  // (widget/intl-warm-up.ts); docs/embedding.md asks clinics' pages with a CSP to allow the same.
  'worker-src': ["'self'", 'blob:'],
};

/**
 * The BFF's own pages (the demo, health checks, 404s): a strict CSP, the one
 * docs/embedding.md recommends to clinics. Images only from the BFF (the
 * clinic's pictures come through /api/pictures). Style elements only from
 * 'self' and the given hashes (`'sha256-…'`, the demo's inline CSS), and no
 * style attribute at all: the widget sets none (its theme is a constructed
 * stylesheet, widget/instance-styles.ts).
 */
export function pageSecurityHeaders(styleHashes: string[] = []) {
  return helmet({
    contentSecurityPolicy: {
      directives: { ...pageDirectives, 'style-src': ["'self'", ...styleHashes] },
    },
  });
}

/**
 * `npm run dev` only (WIDGET_DEV_URL): the same, with helmet's default style-src (Vite's
 * client styles its error overlay inline). Workers from blob: URLs, which every page allows,
 * serve Vite too: when the HMR websocket drops (the BFF or Vite restarted), its client waits
 * for the server in a SharedWorker made from a blob: URL, then reloads the page.
 */
export const devPageSecurityHeaders = helmet({
  contentSecurityPolicy: {
    directives: pageDirectives,
  },
});
