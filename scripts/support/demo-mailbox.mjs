// The clinic's mailbox of `npm start`: an SMTP catcher on loopback and a page that shows what it caught, so the
// demo shows the e-mail a clinic would receive, and the confirmation a patient who ticks the e-mail box gets,
// without any mail server of the user's. The BFF sends to it as to any relay (SMTP_URL=smtp://127.0.0.1:<port>);
// nothing is delivered anywhere. The last messages are kept in memory only (they hold patients' names, phones
// and addresses: never written to disk, never logged) and go when the demo stops. The page is only for the person at this machine: it listens on 127.0.0.1 and answers only to
// a loopback Host (a page elsewhere could otherwise read it by DNS rebinding).
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const HOST = '127.0.0.1';

/**
 * Starts the SMTP catcher and its page. Port 0 takes any free port; the ports taken are returned.
 * `demoUrl` (the demo page) and `address` (the clinic's address) only make the page's words concrete.
 */
export async function startMailbox({ smtpPort = 0, httpPort = 0, keep = 50, maxMessageBytes = 1024 * 1024, demoUrl, address } = {}) {
  /** Newest first. */
  const messages = [];
  let lastId = 0;

  const smtp = new SMTPServer({
    name: 'demo-mailbox.localhost',
    banner: 'clinic-booking demo mailbox: nothing is delivered',
    // Loopback only, no account, no TLS: SMTP_URL's STARTTLS is not required to a loopback address.
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    disableReverseLookup: true,
    size: maxMessageBytes,
    rejectOversized: true,
    maxClients: 20,
    closeTimeout: 2000,
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => stream.sizeExceeded || chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(Object.assign(new Error('message exceeds fixed maximum message size'), { responseCode: 552 }));
        simpleParser(Buffer.concat(chunks), { skipHtmlToText: true, skipTextToHtml: true }).then(
          (mail) => {
            messages.unshift(describe(++lastId, mail, session.envelope));
            messages.length = Math.min(messages.length, keep);
            callback();
          },
          () => callback(Object.assign(new Error('message could not be parsed'), { responseCode: 554 })),
        );
      });
    },
  });
  const smtpAddress = await listen(smtp, smtpPort);
  // A client that drops its connection is an error event of the server's: nothing to act on in a catcher.
  smtp.on('error', () => {});

  let page;
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mailbox');
    if (!isLoopbackHost(req.headers.host, page.port)) return send(res, 421, 'text/plain', 'This mailbox answers only at localhost or 127.0.0.1.\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only\n', { Allow: 'GET, HEAD' });
    if (url.pathname === '/') return send(res, 200, 'text/html', renderPage({ messages, keep, smtpPort: smtpAddress.port, demoUrl, address }), { 'Content-Security-Policy': PAGE_CSP });
    if (url.pathname === '/messages.json') return send(res, 200, 'application/json', `${JSON.stringify({ messages }, null, 2)}\n`);
    // What the page polls: it reloads only when something new has come.
    if (url.pathname === '/newest.json') return send(res, 200, 'application/json', JSON.stringify({ newest: messages[0]?.id ?? 0 }));
    send(res, 404, 'text/plain', 'Not found\n');
  });
  try {
    page = await listen(http, httpPort);
  } catch (error) {
    await new Promise((resolve) => smtp.close(resolve));
    throw error;
  }

  return {
    smtpPort: smtpAddress.port,
    httpPort: page.port,
    url: `http://127.0.0.1:${page.port}/`,
    messages: () => [...messages],
    async close() {
      http.closeAllConnections();
      await Promise.all([new Promise((resolve) => http.close(resolve)), new Promise((resolve) => smtp.close(resolve))]);
    },
  };
}

/** Listens on loopback; rejects with the listen error (a port in use) instead of emitting it. */
function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const net = server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve(net.address());
    });
  });
}

function isLoopbackHost(host, port) {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes((host ?? '').toLowerCase());
}

function send(res, status, type, body, headers = {}) {
  res
    .writeHead(status, {
      'Content-Type': `${type}; charset=utf-8`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      ...headers,
    })
    .end(res.req.method === 'HEAD' ? undefined : body);
}

/** One caught message as /messages.json gives it and the page shows it. */
function describe(id, mail, envelope) {
  // `Name <address>`, as people write it (mailparser's own text quotes every name).
  const person = (a) => (a.group ? a.group.map(person).join(', ') : a.name ? `${a.name} <${a.address}>` : a.address);
  const addresses = (field) => (field === undefined ? null : [field].flat().flatMap((f) => f.value.map(person)).join(', '));
  return {
    id,
    received_at: new Date().toISOString(),
    envelope: { from: envelope.mailFrom ? envelope.mailFrom.address : null, to: envelope.rcptTo.map((r) => r.address) },
    subject: mail.subject ?? null,
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    reply_to: addresses(mail.replyTo),
    date: mail.date ? mail.date.toISOString() : null,
    message_id: mail.messageId ?? null,
    text: mail.text ?? null,
    html: typeof mail.html === 'string' ? mail.html : null,
    attachments: mail.attachments.map((a) => ({ filename: a.filename ?? null, content_type: a.contentType, size: a.size })),
  };
}

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);

/**
 * The page reloads itself when a new message has come (and keeps its scroll position); without scripts, the
 * refresh link does the same. Allowed by its hash alone.
 */
const POLL_SCRIPT = `const shown = document.body.dataset.newest;
setInterval(() => {
  fetch('/newest.json', { cache: 'no-store' })
    .then((res) => res.json())
    .then(({ newest }) => { if (String(newest) !== shown) location.reload(); })
    .catch(() => {});
}, 2000);`;

/**
 * The page's policy. A srcdoc frame inherits it, so it is the ceiling of what a message's HTML may do too:
 * inline styles and data: images (cid: pictures become data: URLs), nothing fetched from anywhere, no script
 * but the page's own poll (which the frame's sandbox blocks as well), no frame may navigate away.
 */
const PAGE_CSP = [
  "default-src 'none'",
  `script-src 'sha256-${createHash('sha256').update(POLL_SCRIPT).digest('base64')}'`,
  "connect-src 'self'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'font-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The message's own policy, first in its document: the same ceiling again, should the frame ever not inherit the page's. */
const MAIL_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'";

/**
 * A message's HTML, only ever as the srcdoc of a frame sandboxed of everything (no scripts, no forms, no
 * popups, no navigation of the page, an origin of its own), escaped into the attribute: never in the page.
 */
function htmlFrame(message) {
  const doc = `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${MAIL_CSP}">${message.html}`;
  return `<iframe sandbox srcdoc="${escapeHtml(doc)}" title="The HTML part of “${escapeHtml(message.subject ?? 'no subject')}”" referrerpolicy="no-referrer"></iframe>`;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
const formatDate = (iso) => (iso ? `<time datetime="${escapeHtml(iso)}">${escapeHtml(dateFormat.format(new Date(iso)))}</time>` : '<span class="none">none</span>');
const field = (name, value, cls = '') => `<dt>${name}</dt><dd${cls ? ` class="${cls}"` : ''}>${value === null ? '<span class="none">none</span>' : escapeHtml(value)}</dd>`;
const formatSize = (bytes) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`);

function renderMessage(message) {
  // Recipients of the envelope the headers do not name (a Bcc).
  const named = `${message.to ?? ''} ${message.cc ?? ''}`.toLowerCase();
  const unnamed = message.envelope.to.filter((address) => !named.includes(address.toLowerCase()));
  return `<article class="mail" id="message-${message.id}" aria-labelledby="subject-${message.id}">
  <header>
    <h2 id="subject-${message.id}">${message.subject === null ? '<span class="none">(no subject)</span>' : escapeHtml(message.subject)}</h2>
    <dl>
      ${[
        field('From', message.from),
        field('To', message.to),
        message.cc === null ? '' : field('Cc', message.cc),
        message.reply_to === null ? '' : field('Reply-To', message.reply_to),
        unnamed.length === 0 ? '' : field('Bcc', unnamed.join(', ')),
        `<dt>Date</dt><dd>${formatDate(message.date)}</dd>`,
        field('Message-ID', message.message_id, 'mono'),
      ]
        .filter(Boolean)
        .join('\n      ')}
    </dl>
  </header>
  <div class="parts">
    <section class="part">
      <h3>HTML</h3>
      ${message.html === null ? '<p class="missing">This e-mail has no HTML part.</p>' : htmlFrame(message)}
    </section>
    <section class="part">
      <h3>Plain text</h3>
      ${message.text === null ? '<p class="missing">This e-mail has no plain-text part.</p>' : `<pre>${escapeHtml(message.text)}</pre>`}
    </section>
  </div>${
    message.attachments.length === 0
      ? ''
      : `
  <footer><h3>Attachments</h3><ul>${message.attachments.map((a) => `<li>${escapeHtml(a.filename ?? 'unnamed')} <span class="none">${escapeHtml(a.content_type)}, ${formatSize(a.size)}</span></li>`).join('')}</ul></footer>`
  }
</article>`;
}

function renderPage({ messages, keep, smtpPort, demoUrl, address }) {
  const demoPage = demoUrl ? `<a href="${escapeHtml(demoUrl)}">demo page</a>` : 'demo page';
  const clinic = address ? `the clinic (<strong>${escapeHtml(address)}</strong>)` : 'the clinic';
  const body =
    messages.length === 0
      ? `<section class="empty">
    <h2>No e-mail yet</h2>
    <p>Book an appointment on the ${demoPage}; the clinic's e-mail appears here, and the patient's confirmation when the e-mail box is ticked.</p>
    <p class="none">This page shows new e-mail as it arrives.</p>
  </section>`
      : `<p class="count">${messages.length === 1 ? '1 e-mail' : `${messages.length} e-mails`}, newest first${messages.length >= keep ? ` (the last ${keep} are kept)` : ''}</p>
${messages.map(renderMessage).join('\n')}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Clinic's mailbox${messages.length ? ` (${messages.length})` : ''}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body data-newest="${messages[0]?.id ?? 0}">
<header class="top">
  <div class="wrap">
    <h1>Clinic's mailbox</h1>
    <p>The e-mail the demo sends to ${clinic} and to patients who ask for a confirmation, caught on this machine (SMTP at 127.0.0.1:${smtpPort}): nothing is delivered anywhere. The last ${keep} stay here, in memory, until the demo stops.</p>
    <nav><a href="/">Refresh</a><a href="/messages.json">JSON</a>${demoUrl ? `<a href="${escapeHtml(demoUrl)}">Demo page</a>` : ''}</nav>
  </div>
</header>
<main class="wrap">
${body}
</main>
<script>${POLL_SCRIPT}</script>
</body>
</html>
`;
}

const STYLE = `
:root { color-scheme: light; --ink: #0f172a; --muted: #475569; --line: #e2e8f0; --bg: #f1f5f9; --card: #fff; --accent: #0f766e; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
.wrap { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
a { color: var(--accent); }
.top { background: var(--ink); color: #e2e8f0; padding: 1.25rem 0 1rem; }
.top h1 { margin: 0 0 0.25rem; font-size: 1.375rem; color: #fff; }
.top p { margin: 0 0 0.75rem; max-width: 48rem; font-size: 0.875rem; color: #cbd5e1; }
.top strong { color: #fff; font-weight: 600; }
.top nav { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.top nav a { color: #fff; text-decoration: none; font-size: 0.875rem; padding: 0.3rem 0.75rem; border: 1px solid #475569; border-radius: 999px; }
.top nav a:hover, .top nav a:focus-visible { background: #1e293b; border-color: #94a3b8; }
main.wrap { padding-top: 1.25rem; padding-bottom: 2rem; }
.count { margin: 0 0 0.75rem; color: var(--muted); font-size: 0.875rem; }
.empty { background: var(--card); border: 1px dashed #cbd5e1; border-radius: 0.75rem; padding: 2.5rem 1.5rem; text-align: center; }
.empty h2 { margin: 0 0 0.5rem; font-size: 1.25rem; }
.empty p { margin: 0.25rem 0; }
.mail { background: var(--card); border: 1px solid var(--line); border-radius: 0.75rem; margin: 0 0 1.25rem; box-shadow: 0 1px 2px rgb(15 23 42 / 0.06); overflow: hidden; }
.mail > header { padding: 1rem 1.25rem 0.75rem; border-bottom: 1px solid var(--line); }
.mail h2 { margin: 0 0 0.625rem; font-size: 1.125rem; line-height: 1.35; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.125rem 1rem; margin: 0; font-size: 0.875rem; }
dt { color: var(--muted); }
dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.mono { font: 0.8125rem/1.5 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
.none { color: var(--muted); }
.parts { display: grid; }
.part { padding: 0.75rem 1.25rem 1.25rem; min-width: 0; }
.part + .part { border-top: 1px solid var(--line); }
@media (min-width: 56rem) {
  .parts { grid-template-columns: 1fr 1fr; }
  .part + .part { border-top: 0; border-left: 1px solid var(--line); }
}
h3 { margin: 0 0 0.5rem; font-size: 0.75rem; letter-spacing: 0.06em; text-transform: uppercase; color: var(--muted); }
iframe { display: block; width: 100%; height: 22rem; border: 1px solid var(--line); border-radius: 0.5rem; background: #fff; resize: vertical; overflow: hidden; }
pre { margin: 0; padding: 0.75rem; max-height: 22rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; background: #f8fafc; border: 1px solid var(--line); border-radius: 0.5rem; font: 0.8125rem/1.55 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
.missing { margin: 0; color: var(--muted); font-style: italic; }
.mail > footer { padding: 0.75rem 1.25rem 1rem; border-top: 1px solid var(--line); font-size: 0.875rem; }
.mail > footer ul { margin: 0; padding-left: 1.25rem; }
`;
