// The clinic's side of the outbox benchmark, as a child process of its own (so that the work of taking
// mail and webhooks never weighs on the benchmark's load client): a real SMTP server (smtp-server) and a
// real node:http webhook receiver that checks each signature with standardwebhooks, on loopback, on the
// ports the parent chose (SMTP_PORT, WEBHOOK_PORT). A control server (CONTROL_PORT) takes them down and
// brings them back on the same ports: POST /down stops both listening (connections refused, as a
// receiver that is down), POST /up listens again; GET /ready answers 200 once it runs.
//
// Each message taken is one JSON line on stdout: {"channel":"email"|"webhook","id":"msg_…","at":ms,"ok":bool},
// `at` when it was taken (Date.now(), the clock the BFF's created_at is read with), `ok` whether the
// webhook's signature held or the mail had a Message-ID of the outbox's form. The first mail is also
// parsed with mailparser (a sample: {"sample":"email","ok":bool}). Never a patient's name or phone.

import { createServer } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';

const HOST = '127.0.0.1';
const { SMTP_PORT, WEBHOOK_PORT, CONTROL_PORT, WEBHOOK_SECRET } = process.env;
const webhook = new Webhook(WEBHOOK_SECRET);
/** The Message-ID the BFF gives a message's e-mail: `<msg_…@domain>` (bff/notifications/mail-sender.ts). */
const MESSAGE_ID = /^message-id:[ \t]*<(msg_[0-9a-z]+)@[^>]+>/im;

let sampled = false;
const report = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

function onMail(stream, _session, callback) {
  const chunks = [];
  stream.on('data', (chunk) => chunks.push(chunk));
  stream.on('error', callback);
  stream.on('end', () => {
    const at = Date.now();
    const raw = Buffer.concat(chunks);
    const text = raw.toString('utf8');
    const headers = text.slice(0, text.search(/\r?\n\r?\n/));
    const id = MESSAGE_ID.exec(headers)?.[1];
    report({ channel: 'email', id: id ?? null, at, ok: id !== undefined });
    if (!sampled) {
      sampled = true;
      simpleParser(raw).then(
        (mail) => report({ sample: 'email', ok: Boolean(id && mail.messageId?.startsWith(`<${id}@`) && mail.subject && mail.text && mail.html) }),
        () => report({ sample: 'email', ok: false }),
      );
    }
    callback();
  });
}

function onHook(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const at = Date.now();
    const body = Buffer.concat(chunks).toString('utf8');
    let ok = true;
    try {
      webhook.verify(body, req.headers);
    } catch {
      ok = false;
    }
    report({ channel: 'webhook', id: req.headers['webhook-id'] ?? null, at, ok });
    res.writeHead(ok ? 204 : 401).end();
  });
}

/** The two receivers while up; undefined while down. */
let up;

function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(port), HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function bringUp() {
  if (up) return;
  const smtp = new SMTPServer({
    // Loopback, no account, no TLS: the BFF's SMTP_URL needs no STARTTLS to a loopback relay.
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    // A relay's reverse lookup of 127.0.0.1 measures this machine's resolver, not the BFF.
    disableReverseLookup: true,
    closeTimeout: 1000,
    logger: false,
    onData: onMail,
  });
  // A client that drops its connection is an error event of the server's: nothing to act on here.
  smtp.on('error', () => {});
  const http = createServer(onHook);
  await listen(smtp.server, SMTP_PORT);
  await listen(http, WEBHOOK_PORT);
  up = { smtp, http };
}

async function bringDown() {
  if (!up) return;
  const { smtp, http } = up;
  up = undefined;
  // Both stop listening at once; connections still open are closed (smtp-server after closeTimeout).
  await Promise.all([
    new Promise((resolve) => smtp.close(resolve)),
    new Promise((resolve) => {
      http.close(resolve);
      http.closeAllConnections();
    }),
  ]);
}

const control = createServer((req, res) => {
  const answer = (status) => res.writeHead(status, { 'content-type': 'text/plain' }).end(up ? 'up\n' : 'down\n');
  if (req.method === 'GET' && req.url === '/ready') return answer(200);
  const action = req.method === 'POST' && { '/down': bringDown, '/up': bringUp }[req.url];
  if (!action) return answer(404);
  action().then(
    () => answer(200),
    (error) => res.writeHead(500).end(`${error.message}\n`),
  );
});

await bringUp();
await listen(control, CONTROL_PORT);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    control.close();
    void bringDown().finally(() => process.exit(0));
  });
}
