import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { BffBookingResponse } from '../../../contract/bff.js';
import { ChangeRequestResponse } from '../../../contract/bff-changes.js';
import type { OutboxListing } from '../../../bff/cli/outbox-commands.js';
import { systemClock } from '../../../platform/clock.js';
import type { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { removeDb, seedClinic, startTestServer, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { reachable, SERVICES, servicesRequired } from '../../support/services.js';
import { once } from '../../support/scoped-teardown.js';
import { REPO_ROOT } from './stack.js';

/**
 * What the e2e tests of the outbox run: the reference server with a seeded
 * clinic, real BFF processes (`node dist/bff/main.js`, as `npm run
 * start:bff` runs it) on a BFF database of the test's own, and the clinic's
 * two receivers: a real SMTP server read with mailparser, and an HTTP
 * receiver that checks every webhook with Standard Webhooks' own `verify`.
 */

const run = promisify(execFile);

/** The patient of every booking: no log line of any BFF may contain either. */
export const PATIENT = { name: 'Ada Quillfeather', phone: '+44 7700 900461' } as const;

// ---------------------------------------------------------------------------------------------------------------
// The BFF's database

/** PostgreSQL's suites run when it answers, or always under REQUIRE_SERVICES=1 (CI), where they then fail. */
export const postgresRuns: boolean = servicesRequired() || (await reachable(SERVICES.postgres.url));

export interface BffDatabase {
  engine: 'sqlite' | 'postgres';
  /** What DATABASE_URL says to reach it. */
  url: string;
  /** A folder of the test's own: the SQLite file, and the BFF processes' working directory. */
  folder: string;
  remove(): Promise<void>;
}

async function onMaintenanceDatabase(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVICES.postgres.url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A BFF database made for the test: a SQLite file in a fresh folder, or a fresh PostgreSQL database dropped by remove(). */
export async function bffDatabase(engine: 'sqlite' | 'postgres'): Promise<BffDatabase> {
  const folder = mkdtempSync(join(tmpdir(), 'bff-outbox-e2e-'));
  if (engine === 'sqlite') {
    return { engine, url: `file:${join(folder, 'bff.db')}`, folder, remove: once(async () => rmSync(folder, { recursive: true, force: true })) };
  }
  const name = `bff_outbox_e2e_${randomBytes(6).toString('hex')}`;
  await onMaintenanceDatabase(`create database ${name}`);
  const url = new URL(SERVICES.postgres.url);
  url.pathname = `/${name}`;
  return {
    engine,
    url: url.href,
    folder,
    remove: once(async () => {
      await onMaintenanceDatabase(`drop database if exists ${name} with (force)`);
      rmSync(folder, { recursive: true, force: true });
    }),
  };
}

/** `npm run --silent bff -- outbox list --limit 1000` on `databaseUrl`: what an operator sees. */
export async function outboxList(databaseUrl: string): Promise<OutboxListing[]> {
  const { stdout } = await run('npm', ['run', '--silent', 'bff', '--', 'outbox', 'list', '--limit', '1000'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
    timeout: 30_000,
  });
  return JSON.parse(stdout) as OutboxListing[];
}

// ---------------------------------------------------------------------------------------------------------------
// The clinic's system

export interface ReferenceClinic {
  server: TestServer;
  clinic: SeededClinic;
  close(): Promise<void>;
}

/**
 * The reference server on the system clock (the BFF processes run on it), its own SQLite file, one clinic
 * seeded: the test fixture's, or the file `clinicFile` makes from the server's base URL (the demo clinic,
 * whose pictures the server serves, for a test that shows the demo page).
 */
export async function startReferenceClinic(clinicFile?: (baseUrl: string) => ClinicFile): Promise<ReferenceClinic> {
  const server = await startTestServer({ clock: systemClock });
  const clinic = await seedClinic(server, clinicFile?.(server.baseUrl));
  return {
    server,
    clinic,
    close: once(async () => {
      await server.close();
      removeDb(server.dbPath);
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// A BFF process

export interface BffProcess {
  child: ChildProcess;
  /** http://127.0.0.1:port/api */
  api: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its JSON log lines so far. */
  logs(): Record<string, unknown>[];
  /** The ids of the messages it logged as delivered. */
  delivered(): string[];
  /** Its exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** SIGTERM, unless it has ended; waits for the end. */
  stop(): Promise<void>;
}

/** The settings every BFF of these tests has: the clinic at `upstream`, limits no burst of a test reaches. */
export function bffSettings(reference: ReferenceClinic, databaseUrl: string): Record<string, string> {
  return {
    UPSTREAM_URL: reference.server.api,
    APP_KEY: reference.clinic.appKey,
    APP_SECRET_KEY: reference.clinic.secret,
    BOOKING_REF_SECRET: 'the-outbox-e2e-reference-secret-0123456789',
    DATABASE_URL: databaseUrl,
    // The receivers are on this machine: a webhook to loopback is refused unless allowed.
    OUTBOUND_ALLOWLIST: '127.0.0.1',
    API_RATE_LIMIT: '10000',
    BOOKING_RATE_LIMIT: '1000',
    STATUS_RATE_LIMIT: '1000',
    CHANGE_RATE_LIMIT: '1000',
  };
}

/**
 * Starts `node dist/bff/main.js` (ensureServicesBuilt() first) with exactly
 * `env` and PATH, nothing of the test runner's environment, in `cwd` (a
 * folder of the test's, so no `.env` of the repository is read); resolves
 * once it listens.
 */
export async function startBffProcess(env: Record<string, string>, cwd: string): Promise<BffProcess> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'bff', 'main.js')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const port = await new Promise<number>((resolve, reject) => {
    // Generous: on a busy machine, with other processes starting too, a start takes a while.
    const timer = setTimeout(() => reject(new Error(`the BFF did not start:\n${output}`)), 45_000);
    const onData = () => {
      const match = /BFF listening on http:\/\/[^/]+:(\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((end) => {
      clearTimeout(timer);
      reject(new Error(`the BFF ended (${String(end)}) while starting:\n${output}`));
    });
  });
  const logs = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    child,
    api: `http://127.0.0.1:${port}/api`,
    output: () => output,
    logs,
    delivered: () => logs().filter((line) => line.msg === 'outbox message delivered').map((line) => String(line.message_id)),
    exited,
    stop: once(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    }),
  };
}

/** POST /api/appointments/book with the patient of these tests; the answer must be 200, and its reference is returned. */
export async function book(bff: BffProcess, date: string, time: string): Promise<string> {
  const res = await fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ patient_name: PATIENT.name, patient_phone: PATIENT.phone, appointment_date: date, appointment_time: time }),
  });
  if (res.status !== 200) throw new Error(`booking ${date} ${time} answered ${res.status}: ${await res.text()}`);
  return BffBookingResponse.parse(await res.json()).data.reference;
}

/** POST /api/appointments/change-requests {reference, kind: cancel}: its status and answer. */
export async function requestCancel(bff: BffProcess, reference: string): Promise<{ status: number; body: ChangeRequestResponse }> {
  const res = await fetch(`${bff.api}/appointments/change-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference, kind: 'cancel' }),
  });
  const text = await res.text();
  if (res.status !== 200 && res.status !== 201) throw new Error(`cancel request answered ${res.status}: ${text}`);
  return { status: res.status, body: ChangeRequestResponse.parse(JSON.parse(text)) };
}

// ---------------------------------------------------------------------------------------------------------------
// The clinic's receivers

/** One webhook request: its id, what `verify` made of it, and the status it was answered with once it was. */
export interface ReceivedHook {
  id: string;
  /** The payload's `type` and `data.reference`, when the signature held. */
  type?: string;
  reference?: string;
  verified: boolean;
  /** The status it was answered with; undefined while held, or when the BFF hung up before its answer. */
  status?: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  requests: ReceivedHook[];
  /** 'answer' (204 to a verified request, 401 to another), or 'hold' (no answer until release()). */
  mode: 'answer' | 'hold';
  /** Requests of `id` answered 2xx: what delivered means to the receiver. */
  delivered(id: string): number;
  /** Requests held right now, their caller still waiting. */
  held(): number;
  /** Answers every held request whose caller still waits (204), and answers the next ones at once. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver of the BFF's webhooks on 127.0.0.1 (`port`, or an
 * ephemeral one) that checks each with `new Webhook(secret).verify`.
 */
export async function startWebhookReceiver(secret: string, { port = 0, mode = 'answer' as WebhookReceiver['mode'] } = {}): Promise<WebhookReceiver> {
  const holding: { hook: ReceivedHook; res: ServerResponse }[] = [];
  const answer = (hook: ReceivedHook, res: ServerResponse) => {
    // A caller that hung up (a try that timed out, a BFF killed) never gets this answer: it does not count.
    if (res.destroyed) return;
    hook.status = hook.verified ? 204 : 401;
    res.writeHead(hook.status).end();
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const hook: ReceivedHook = { id: String(req.headers['webhook-id'] ?? ''), verified: false };
      try {
        const payload = new Webhook(secret).verify(body, req.headers as Record<string, string>) as { type: string; data: { reference: string } };
        hook.verified = true;
        hook.type = payload.type;
        hook.reference = payload.data.reference;
      } catch {
        // Answered 401 below; the test sees verified: false.
      }
      receiver.requests.push(hook);
      if (receiver.mode === 'hold') holding.push({ hook, res });
      else answer(hook, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${bound}/hooks/clinic`,
    port: bound,
    requests: [],
    mode,
    delivered: (id) => receiver.requests.filter((hook) => hook.id === id && hook.status !== undefined && hook.status < 300).length,
    held: () => holding.filter(({ res }) => !res.destroyed && !res.writableEnded).length,
    release() {
      receiver.mode = 'answer';
      for (const { hook, res } of holding.splice(0)) answer(hook, res);
    },
    close: once(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }),
  };
  return receiver;
}

/** One e-mail the mailbox took (answered 250 to its DATA). */
export interface ReceivedMail {
  messageId: string;
  subject: string;
  text: string;
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  /** The From header's address. */
  from: string;
  /** The HTML part; '' when it has none. */
  html: string;
  /** Each header as sent, by its name in lower case: its value unfolded (RFC 5322's line breaks taken out). */
  headers: Record<string, string>;
  /** Each attachment: its name, its Content-Type and that header's parameters (charset, method…), its content as text. */
  attachments: { filename: string; contentType: string; params: Record<string, string>; text: string }[];
}

/** The headers of a parsed mail, as ReceivedMail gives them. */
const headersOf = (lines: readonly { key: string; line: string }[]): Record<string, string> =>
  Object.fromEntries(lines.map(({ key, line }) => [key, line.slice(line.indexOf(':') + 1).replace(/\r?\n(?=[ \t])/g, '').trim()]));

export interface ClinicMailbox {
  /** smtp://127.0.0.1:port */
  url: string;
  port: number;
  /** The mails it took. */
  received: ReceivedMail[];
  /** 'accept', or 'hold': a mail's DATA is read whole and never answered, as a relay that hangs. */
  mode: 'accept' | 'hold';
  /** Mails whose DATA is held right now, their sender still connected. */
  held(): number;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 without STARTTLS: the BFF
 * upgrades a loopback session when offered, and this relay's built-in
 * certificate is one the BFF process rightly does not trust. Each mail is
 * read with mailparser.
 */
export async function startClinicMailbox({ port = 0, mode = 'accept' as ClinicMailbox['mode'] } = {}): Promise<ClinicMailbox> {
  /** The sessions whose mail is held, until their sender hangs up. */
  const holding = new Set<string>();
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        // Held: read whole and never answered; the sender's try waits until it gives up or is killed.
        if (mailbox.mode === 'hold') return void holding.add(session.id);
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            mailbox.received.push({
              messageId: mail.messageId ?? '',
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              from: mail.from?.value[0]?.address ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              headers: headersOf(mail.headerLines),
              attachments: mail.attachments.map((a) => ({
                filename: a.filename ?? '',
                contentType: a.contentType,
                params: (a.headers.get('content-type') as { params?: Record<string, string> } | undefined)?.params ?? {},
                text: a.content.toString('utf8'),
              })),
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
    onClose(session) {
      holding.delete(session.id);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;
  const mailbox: ClinicMailbox = {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    received: [],
    mode,
    held: () => holding.size,
    close: once(() => new Promise<void>((resolve) => server.close(() => resolve()))),
  };
  return mailbox;
}

/** A fresh Standard Webhooks secret, as `whsec_$(openssl rand -base64 32)` makes one. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
