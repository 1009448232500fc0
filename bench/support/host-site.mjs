// A plain clinic website on its own origin (another loopback port): static HTML pages with the two lines a
// clinic pastes (docs/embedding.md), text above and below the widget, and nothing else, so
// whatever Lighthouse finds on them beyond a plain page's own is the widget's.
//
// The pages follow the embedding advice of docs/embedding.md, as a clinic would (HOST_PAGE_ADVICE, printed with the
// results): a screen's height reserved for the inline widget before it is defined, and the fallback of
// mode="button" floating where the button will be. Without it, the page below the widget moves once
// the widget renders, which no widget can prevent on a first visit.

import { once } from 'node:events';
import { createServer } from 'node:http';
import { HOST, stopAtCleanUp } from './processes.mjs';

/** The advice of docs/embedding.md for a page that embeds the widget, as the host pages use it. */
export const HOST_PAGE_CSS = `@media (scripting: enabled) {
  clinic-booking:not(:defined) { display: flow-root; min-height: 100vh; animation: clinic-booking-reserve 0s 8s forwards; }
  clinic-booking[mode="button"]:not(:defined) { position: fixed; right: 1rem; bottom: 1rem; min-height: 0;
    padding: 0 1rem; background: #fff; border-radius: 0.5rem; box-shadow: 0 4px 16px rgb(0 0 0 / 25%); }
}
@keyframes clinic-booking-reserve { to { min-height: 0; } }`;

export const HOST_PAGE_ADVICE =
  'host pages follow the embedding advice of docs/embedding.md: min-height: 100vh for clinic-booking:not(:defined) inline; ' +
  'the mode="button" fallback fixed where the button will be';

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One host page: `mode` is the widget's mode attribute ('inline' or 'button'). */
export function hostPage({ widgetScriptUrl, mode }) {
  const modeAttribute = mode === 'inline' ? '' : ` mode="${escapeHtml(mode)}"`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Riverside Family Dental: appointments</title>
  <meta name="description" content="Riverside Family Dental in Kingston: opening hours, treatments and online booking.">
  <link rel="icon" href="data:,">
  <style>
${HOST_PAGE_CSS}
  </style>
  <script type="module" src="${escapeHtml(widgetScriptUrl)}"></script>
</head>
<body>
  <header>
    <p><a href="/">Riverside Family Dental</a></p>
  </header>
  <main>
    <h1>Appointments</h1>
    <p>We see new and existing patients six days a week. Choose a treatment and a time that suits you, and
      we will confirm your appointment by phone on the next working day.</p>
    <p>Please arrive ten minutes early for your first visit, and bring a list of any medicines you take.</p>
    <clinic-booking${modeAttribute}>
      <p><a href="tel:+442079460958">Call 020 7946 0958 to book</a></p>
    </clinic-booking>
    <h2>Cancellations</h2>
    <p>If you cannot come, please tell us at least 24 hours before your appointment so that another patient
      can have the time. Missed appointments without notice may be charged.</p>
    <p>Emergency appointments are kept free every morning: call us as soon as we open.</p>
  </main>
  <footer>
    <p>Riverside Family Dental, 12 Thames Walk, Kingston upon Thames KT1 1AA.</p>
  </footer>
</body>
</html>`;
}

/**
 * Serves `pages` (path -> HTML) on a free loopback port, no-store; anything else is a plain 404 (a
 * missing robots.txt is what Lighthouse's SEO audit treats as "none"). Returns its origin.
 */
export async function startHostSite(pages) {
  const server = createServer((req, res) => {
    const page = pages.get(new URL(req.url ?? '/', 'http://host.invalid').pathname);
    if (page === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  server.listen(0, HOST);
  await once(server, 'listening');
  console.log(`  (${HOST_PAGE_ADVICE})`);
  stopAtCleanUp(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve()));
  });
  return `http://${HOST}:${server.address().port}`;
}
