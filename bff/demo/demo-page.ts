/**
 * The demo at GET /: a plain clinic page, as a clinic's own site would be,
 * with the two lines a clinic pastes in. The light-DOM link inside the element
 * is what visitors without JavaScript see.
 */
export const DEMO_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Bright Smile Dental: book online</title>
  <meta name="description" content="Demo of the clinic-booking widget on a clinic website.">
  <link rel="stylesheet" href="/demo.css">
  <script type="module" src="/widget/clinic-booking.js"></script>
</head>
<body>
  <header class="site-header">
    <a class="brand" href="/">Bright Smile Dental</a>
    <nav aria-label="Main">
      <a href="#book">Book</a>
      <a href="/api/treatments">Treatments (JSON)</a>
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

export const DEMO_CSS = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
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
