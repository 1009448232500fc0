import { Router } from 'express';
import { cspHashOf } from '../http/security-headers.js';
import { compressOnce, contentEtag, sendCompressed, type Coding } from '../widget-hosting/precompressed.js';

/**
 * The demo page's own CSS: small, so inline rather than a render-blocking
 * stylesheet. The scrollbar's gutter is kept from the start: the page is
 * shorter than a window until the widget renders, and a scrollbar appearing
 * then would move the centred <main> sideways (a layout shift of the page's
 * own making, as a clinic's longer page would not have).
 *
 * The last rules are the advice of docs/embedding.md to any page that embeds the widget
 * (RESERVATION_CSS): with scripting on, the element takes a screen's height before it is defined,
 * the space its content will take, so nothing below it moves when the widget renders (the widget
 * keeps that space until its content has rendered). Should the script never load (the BFF down),
 * the reservation ends by itself after 8 s and the fallback link keeps its own size: no screen-tall
 * gap. Without scripting, the fallback keeps its own size from the start.
 */
export const DEMO_CSS = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; scrollbar-gutter: stable; }
body { margin: 0; background: #f8fafc; color: #0f172a; }
.site-header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between;
  padding: 0.75rem 1.25rem; background: #134e4a; color: #fff; }
.site-header a { color: #fff; text-decoration: none; }
.site-header nav { display: flex; gap: 1rem; }
.brand { font-weight: 700; font-size: 1.125rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
.fallback { padding: 2rem; background: #fff; border-radius: 0.5rem; }
.site-footer { padding: 2rem 1.25rem; color: #475569; text-align: center; font-size: 0.875rem; }
`;

/**
 * The reservation rule of docs/embedding.md, word for word: a screen's height while the widget
 * loads, given up after 8 s (an animation that ends at min-height 0 and stays there) when it has not.
 */
export const RESERVATION_CSS = `@media (scripting: enabled) {
  clinic-booking:not(:defined) { display: flow-root; min-height: 100vh; animation: clinic-booking-reserve 0s 8s forwards; }
}
@keyframes clinic-booking-reserve { to { min-height: 0; } }
`;

/** A tooth on the clinic's dark teal, inline so the favicon costs no request (and no 404). */
const FAVICON_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='7' fill='#134e4a'/>" +
  "<path fill='#fff' d='M9 7c3-2 5 0 7 0s4-2 7 0c3 3 1 8 0 11l-1 7c-.5 2-2.5 2-3 0l-1-5c-.3-1.3-1.7-1.3-2 0l-1 5c-.5 2-2.5 2-3 0l-1-7C8 15 6 10 9 7z'/></svg>";
export const FAVICON_HREF = `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`;

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface DemoPage {
  html: string;
  /** The CSP source for the page's inline `<style>` (its sha256), for style-src. */
  styleHash: string;
  /** The HTML as is, brotli and gzip, compressed once at start-up. */
  variants: Record<Coding, Buffer>;
  etag: string;
}

/**
 * The demo at GET /: a plain clinic page, as a clinic's own site would be,
 * with the two lines a clinic pastes in. The light-DOM link inside the element
 * is what visitors without JavaScript see. Built once at start-up: the CSS is
 * inline (allowed by its hash, no render-blocking request), the favicon a
 * data: URL. It names nothing but the BFF's own paths: no preconnect to where
 * the clinic's pictures come from, which for the demo is the upstream itself
 * (UPSTREAM_URL, an address browsers have no business knowing); the pictures
 * open their connection when the widget asks for them.
 */
/** The page's one inline <style>: its own CSS, then the reservation rule. */
export const PAGE_CSS = DEMO_CSS + RESERVATION_CSS;

export function demoPage(): DemoPage {
  const html = `<!doctype html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Bright Smile Dental: book online</title>
  <meta name="description" content="Demo of the clinic-booking widget on a clinic website.">
  <link rel="icon" type="image/svg+xml" href="${escapeAttribute(FAVICON_HREF)}">
  <style>${PAGE_CSS}</style>
  <script type="module" src="/widget/clinic-booking.js"></script>
</head>
<body>
  <header class="site-header">
    <a class="brand" href="/">Bright Smile Dental</a>
    <nav aria-label="Main">
      <a href="#book">Book</a>
    </nav>
  </header>
  <main id="book">
    <clinic-booking>
      <p class="fallback">Book by phone: <a href="tel:+442079460958">020 7946 0958</a></p>
    </clinic-booking>
  </main>
  <footer class="site-footer">
    <p>This page is the clinic-booking demo: everything inside the booking area comes from the widget.</p>
  </footer>
</body>
</html>`;
  return { html, styleHash: cspHashOf(PAGE_CSS), variants: compressOnce(Buffer.from(html)), etag: contentEtag(html) };
}

/** GET /: the page, compressed, revalidated on every visit (304 by its ETag); the widget script it loads is cached on its own. */
export function demoRoutes(page: DemoPage): Router {
  const router = Router();
  router.get('/', (req, res) => {
    res.type('html').set('Cache-Control', 'no-cache');
    sendCompressed(req, res, page.variants, page.etag);
  });
  return router;
}
