// The clinic page `npm run demo:sites` serves for each of its two sites: a plain page of the clinic's own
// website, with the two lines a clinic pastes in, the widget's script coming from the agency's BFF under
// the clinic's site id.

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The reservation rule of docs/embedding.md, as the single-clinic demo page uses it. */
const RESERVATION = `@media (scripting: enabled) {
  clinic-booking:not(:defined) { display: flow-root; min-height: 100vh; animation: clinic-booking-reserve 0s 8s forwards; }
}
@keyframes clinic-booking-reserve { to { min-height: 0; } }`;

export function clinicPage({ name, phone, widgetUrl }) {
  return `<!doctype html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escape(name)}: book online</title>
  <link rel="icon" href="data:,">
  <style>
    body { margin: 0; font-family: system-ui, sans-serif; background: #f8fafc; color: #0f172a; }
    header { padding: 0.75rem 1.25rem; background: #0f172a; color: #fff; font-weight: 700; }
    main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
    footer { padding: 2rem 1.25rem; color: #475569; text-align: center; font-size: 0.875rem; }
    ${RESERVATION}
  </style>
  <script type="module" src="${escape(widgetUrl)}"></script>
</head>
<body>
  <header>${escape(name)}</header>
  <main>
    <clinic-booking>
      <p>Book by phone: <a href="tel:${escape(phone.replace(/\s/g, ''))}">${escape(phone)}</a></p>
    </clinic-booking>
  </main>
  <footer>A demo clinic page of <code>npm run demo:sites</code>: one BFF serves this clinic and another, each by its site id.</footer>
</body>
</html>`;
}
