import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReference, readReference } from '../../bff/booking/booking-reference.js';
import { deriveReferenceKey } from '../../bff/config.js';
import { startMailbox, type MailboxMessage } from '../../scripts/support/demo-mailbox.mjs';
import { freePort } from '../support/free-port.js';
import { ensureServicesBuilt, REPO_ROOT, weekdayAhead } from './support/stack.js';
import { eventually } from '../support/eventually.js';

interface Demo {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs scripts/start.mjs, what `npm start` runs after building. */
function startDemo(env: Record<string, string>): Demo {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** A port whose next port is free too: METRICS_PORT and the BFF's METRICS_PORT+1. */
async function twoFreePorts(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const next = createServer();
    const free = await new Promise<boolean>((resolve) => {
      next.once('error', () => resolve(false));
      next.listen(port + 1, '127.0.0.1', () => next.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

async function waitFor(demo: Demo, text: string): Promise<void> {
  for (let i = 0; i < 300 && !demo.output().includes(text); i++) {
    if (demo.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(demo.output()).toContain(text);
}

describe('npm start (scripts/start.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clinic-start-'));
  // The BFF's own database in the test's folder too: the default, data/bff.db in the repository, outlives a run, and
  // its booking records (by appointment id) would take this run's fresh clinic's bookings for ones it already told of.
  const env = { DATABASE_URL: `file:${join(dir, 'clinic.db')}`, BFF_DATABASE_URL: `file:${join(dir, 'bff.db')}`, DEMO_ENV_FILE: join(dir, '.env') };
  let ports: { SERVER_PORT: string; PORT: string; MAILBOX_PORT: string; MAILBOX_SMTP_PORT: string };

  beforeAll(async () => {
    // start.mjs runs the compiled output, as `npm start` does after building.
    await ensureServicesBuilt();
    ports = {
      SERVER_PORT: String(await freePort()),
      PORT: String(await freePort()),
      MAILBOX_PORT: String(await freePort()),
      MAILBOX_SMTP_PORT: String(await freePort()),
    };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds the demo clinic on the first run, serves the demo, and stops both services on Ctrl-C', async () => {
    const demo = startDemo({ ...env, ...ports });
    await waitFor(demo, 'clinic-booking demo is running');

    expect(demo.output()).toContain('Seeded the demo clinic');
    expect(demo.output()).toContain(`http://localhost:${ports.PORT}/`);
    expect(readFileSync(env.DEMO_ENV_FILE, 'utf8')).toMatch(/^APP_SECRET_KEY=cs_/m);
    // The booking reference secret, made once beside the key pair and never derived from it.
    expect(readFileSync(env.DEMO_ENV_FILE, 'utf8')).toMatch(/^BOOKING_REF_SECRET=[\w-]{43}$/m);
    const page = await fetch(`http://127.0.0.1:${ports.PORT}/`);
    expect(await page.text()).toContain('<clinic-booking>');
    // Served over plain http: WebKit would upgrade the widget script to https, which nothing answers.
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    const treatments = (await (await fetch(`http://127.0.0.1:${ports.PORT}/api/treatments`)).json()) as { data: unknown[] };
    expect(treatments.data.length).toBeGreaterThan(3);
    // The clinic's mailbox: its page, and the SMTP port the BFF is given, which catches what is sent to it.
    expect(demo.output()).toContain(`clinic's mailbox  http://localhost:${ports.MAILBOX_PORT}/`);
    const mailboxPage = await (await fetch(`http://127.0.0.1:${ports.MAILBOX_PORT}/`)).text();
    expect(mailboxPage).toContain("<h1>Clinic's mailbox</h1>");
    expect(mailboxPage).toContain(`<a href="http://localhost:${ports.PORT}/">demo page</a>; the clinic's e-mail appears here, and the patient's confirmation`);
    const transport = nodemailer.createTransport({ url: `smtp://127.0.0.1:${ports.MAILBOX_SMTP_PORT}` });
    await transport.sendMail({ from: 'bookings@demo-clinic.test', to: 'reception@demo-clinic.test', subject: 'Caught', text: 'by the demo' });
    transport.close();
    const caught = (await (await fetch(`http://127.0.0.1:${ports.MAILBOX_PORT}/messages.json`)).json()) as { messages: MailboxMessage[] };
    expect(caught.messages.map((m) => m.subject)).toEqual(['Caught']);

    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${ports.SERVER_PORT}/healthz`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${ports.PORT}/healthz`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${ports.MAILBOX_PORT}/`)).rejects.toThrow();
  });

  it("uses the deployer's relay instead of a mailbox of its own, and says so, when SMTP_URL is set", async () => {
    // The deployer's relay: a catcher of its own, on ports of its own.
    const relay = await startMailbox();
    const demo = startDemo({ ...env, ...ports, SMTP_URL: `smtp://127.0.0.1:${relay.smtpPort}`, MAIL_FROM: 'bookings@my-clinic.test', CLINIC_NOTIFY_EMAIL: 'desk@my-clinic.test' });
    try {
      await waitFor(demo, 'clinic-booking demo is running');
      expect(demo.output()).toContain(`clinic's e-mail   through your SMTP_URL (127.0.0.1:${relay.smtpPort}, from .env or the environment) to desk@my-clinic.test`);
      expect(demo.output()).not.toContain("clinic's mailbox");
      await expect(fetch(`http://127.0.0.1:${ports.MAILBOX_PORT}/`)).rejects.toThrow();
    } finally {
      demo.child.kill('SIGINT');
      await demo.exited;
      await relay.close();
    }
  });

  it("mails a booking made through the demo's BFF to the clinic's mailbox, and the confirmation the patient asked for, both on its page", async () => {
    const demo = startDemo({ ...env, ...ports });
    try {
      await waitFor(demo, 'clinic-booking demo is running');
      const demoPage = `http://localhost:${ports.PORT}/`;
      const api = `http://127.0.0.1:${ports.PORT}/api`;
      // The demo offers patients a confirmation by e-mail: it has a relay (the mailbox) and a PUBLIC_ORIGIN (the demo's).
      const content = (await (await fetch(`${api}/content`)).json()) as { offers?: { confirmation_email?: boolean } };
      expect(content.offers).toEqual({ confirmation_email: true });
      const dentists = (await (await fetch(`${api}/dentists`)).json()) as { data: { doctor_id: number; doctor_name: string }[] };
      const dentist = dentists.data[1]!;
      const patient = { patient_name: 'Mailbox Morgan', patient_phone: '+44 7700 900654' };
      const address = 'mailbox.morgan@patient.test';
      // What the widget of the demo page sends with the box ticked (widget/booking/booking-rules.ts).
      const booked = await fetch(`${api}/appointments/book`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...patient,
          appointment_date: weekdayAhead(4),
          appointment_time: '14:00',
          doctor_id: dentist.doctor_id,
          patient_email: address,
          email_consent: true,
          language: 'en',
          page_url: demoPage,
        }),
      });
      expect(booked.status).toBe(200);
      const { reference } = ((await booked.json()) as { data: { reference: string } }).data;

      // The BFF's outbox worker sends both through SMTP to the mailbox, which shows them once caught.
      const [clinicMail, patientMail] = await eventually(
        async () => {
          const { messages } = (await (await fetch(`http://127.0.0.1:${ports.MAILBOX_PORT}/messages.json`)).json()) as { messages: MailboxMessage[] };
          const clinic = messages.filter((m) => m.subject?.startsWith('New booking: ') && m.subject.endsWith(`, ${reference}`));
          const confirmation = messages.filter((m) => m.envelope.to.includes(address));
          expect([clinic.length, confirmation.length]).toEqual([1, 1]);
          return [clinic[0]!, confirmation[0]!];
        },
        { timeoutMs: 30_000 },
      );
      expect(clinicMail.envelope).toEqual({ from: 'bookings@demo-clinic.test', to: ['reception@demo-clinic.test'] });
      expect(clinicMail.text).toContain('New online booking');
      expect(clinicMail.text).toContain(`Booking reference: ${reference}\n`);
      expect(clinicMail.text).toContain(`Dentist: ${dentist.doctor_name}\n`);
      expect(clinicMail.text).toContain(`Patient: ${patient.patient_name}\n`);
      expect(clinicMail.text).toContain(`Phone: ${patient.patient_phone}\n`);

      // The patient's confirmation: to the address alone, its links on the demo's own origin.
      expect(patientMail.envelope).toEqual({ from: 'bookings@demo-clinic.test', to: [address] });
      expect(patientMail.subject).toMatch(/^Your appointment on .+ at 14:00 is booked \(Bright Smile Dental\)$/);
      expect(patientMail.text).toContain(`Booking reference: ${reference}\n`);
      expect(patientMail.text).toContain(`Manage or cancel your booking: ${demoPage}#clinic-booking-manage=${reference}\n`);
      expect(patientMail.text).toMatch(new RegExp(`\nStop reminders: http://localhost:${ports.PORT}/mail/unsubscribe/[\\w-]{43}\n$`));
      expect(patientMail.attachments).toEqual([{ filename: 'appointment.ics', content_type: 'text/calendar', size: expect.any(Number) }]);
      expect(patientMail.text).not.toContain(patient.patient_name);

      // The page lists both, the patient's confirmation to the patient.
      const page = await (await fetch(`http://127.0.0.1:${ports.MAILBOX_PORT}/`)).text();
      expect(page).toContain(`<h2 id="subject-${patientMail.id}">${patientMail.subject}</h2>`);
      expect(page).toContain(`<dt>To</dt><dd>${address}</dd>`);
      expect(page).toContain(`<h2 id="subject-${clinicMail.id}">${clinicMail.subject}</h2>`);
    } finally {
      demo.child.kill('SIGINT');
      await demo.exited;
    }
  });

  it('reuses the clinic and key pair on the next run', async () => {
    const before = readFileSync(env.DEMO_ENV_FILE, 'utf8');
    const demo = startDemo({ ...env, ...ports });
    await waitFor(demo, 'clinic-booking demo is running');

    expect(demo.output()).not.toContain('Seeded');
    expect(readFileSync(env.DEMO_ENV_FILE, 'utf8')).toBe(before);
    const organization = (await (await fetch(`http://127.0.0.1:${ports.PORT}/api/organization`)).json()) as { data: { care_id: number } };
    expect(organization.data.care_id).toBe(1);

    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
  });

  it('passes every setting from the environment and from .env on to both services', async () => {
    writeFileSync(env.DEMO_ENV_FILE, `${readFileSync(env.DEMO_ENV_FILE, 'utf8')}TOKEN_FAILURE_RATE_LIMIT=1\n`);
    const demo = startDemo({ ...env, ...ports, ALLOWED_ORIGINS: 'https://www.my-clinic.example' });
    await waitFor(demo, 'clinic-booking demo is running');
    try {
      const fromSite = await fetch(`http://127.0.0.1:${ports.PORT}/api/treatments`, { headers: { origin: 'https://www.my-clinic.example' } });
      expect(fromSite.headers.get('access-control-allow-origin')).toBe('https://www.my-clinic.example');
      const fromDemo = await fetch(`http://127.0.0.1:${ports.PORT}/api/treatments`, { headers: { origin: `http://localhost:${ports.PORT}` } });
      expect(fromDemo.headers.get('access-control-allow-origin')).toBe(`http://localhost:${ports.PORT}`);

      // One failed exchange allowed per IP and key: the second is refused.
      const grant = () => fetch(`http://127.0.0.1:${ports.SERVER_PORT}/api/v1/granttoken`, { method: 'POST' });
      expect((await grant()).status).toBe(401);
      expect((await grant()).status).toBe(429);
    } finally {
      demo.child.kill('SIGINT');
      await demo.exited;
    }
  });

  it("adds a reference secret to a .env from before it, and still reads the references made from that .env's app secret", async () => {
    const settings = () => Object.fromEntries([...readFileSync(env.DEMO_ENV_FILE, 'utf8').matchAll(/^([A-Z_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
    const api = `http://127.0.0.1:${ports.PORT}/api`;
    // A booking, and the reference a BFF of before (its key from APP_SECRET_KEY) would have given it.
    let demo = startDemo({ ...env, ...ports });
    await waitFor(demo, 'clinic-booking demo is running');
    let legacyReference: string;
    try {
      const dentists = (await (await fetch(`${api}/dentists`)).json()) as { data: { doctor_id: number }[] };
      const booking = { patient_name: 'Upgrade Patient', patient_phone: '+44 7700 900123', appointment_date: weekdayAhead(3), appointment_time: '10:00', doctor_id: dentists.data[0]!.doctor_id };
      const booked = await fetch(`${api}/appointments/book`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(booking) });
      expect(booked.status).toBe(200);
      const { reference } = ((await booked.json()) as { data: { reference: string } }).data;
      const id = readReference(reference, deriveReferenceKey(settings().BOOKING_REF_SECRET!))!;
      legacyReference = createReference(id, deriveReferenceKey(settings().APP_SECRET_KEY!));
    } finally {
      demo.child.kill('SIGINT');
      await demo.exited;
    }
    writeFileSync(env.DEMO_ENV_FILE, readFileSync(env.DEMO_ENV_FILE, 'utf8').replace(/^BOOKING_REF_SECRET=.*\n/m, ''));

    demo = startDemo({ ...env, ...ports });
    await waitFor(demo, 'clinic-booking demo is running');
    try {
      expect(demo.output()).toContain('Added a booking reference secret');
      expect(settings().BOOKING_REF_SECRET).toMatch(/^[\w-]{43}$/);
      expect(settings().BOOKING_REF_SECRET_PREVIOUS).toBe(settings().APP_SECRET_KEY);
      const status = await fetch(`${api}/appointments/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference: legacyReference }) });
      expect(status.status).toBe(200);
      expect(((await status.json()) as { data: { name: string } }).data.name).toBe('Upgrade Patient');
    } finally {
      demo.child.kill('SIGINT');
      await demo.exited;
    }
  });

  it('stops with one line naming the setting when a port is taken', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(Number(ports.SERVER_PORT), '127.0.0.1', resolve));
    try {
      const demo = startDemo({ ...env, ...ports });
      expect(await demo.exited).toBe(1);
      const lines = demo.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`port ${ports.SERVER_PORT} is already in use.*SERVER_PORT`));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("stops with one line naming MAILBOX_PORT, before anything starts, when the mailbox's port is taken", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(Number(ports.MAILBOX_PORT), '127.0.0.1', resolve));
    try {
      const demo = startDemo({ ...env, ...ports });
      expect(await demo.exited).toBe(1);
      const lines = demo.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`port ${ports.MAILBOX_PORT} \\(the clinic's mailbox\\) is already in use.*set MAILBOX_PORT`));
      await expect(fetch(`http://127.0.0.1:${ports.SERVER_PORT}/healthz`)).rejects.toThrow();
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  // `npm start` as a terminal would not run it: a signal from `kill`, Docker, systemd or an IDE reaches the npm process
  // alone, not its whole process group, so npm must pass it on and the demo must act on it.
  it.each([
    ['SIGTERM', 'as Docker or systemd send it'],
    ['SIGINT', 'as `kill -INT` sends it'],
  ] as const)('stops both services, draining without a forced exit, when %s reaches only the npm process, %s', async (signal, _sentBy) => {
    // A process group of its own, so that whatever a failed stop leaves behind can be ended below; the signal goes to npm alone.
    const npm = spawn('npm', ['start'], { cwd: REPO_ROOT, env: { ...process.env, ...env, ...ports }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const up = async (port: string) => fetch(`http://127.0.0.1:${port}/healthz`).then(() => true, () => false);
    try {
      for (let i = 0; i < 900 && !output.includes('clinic-booking demo is running'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(output).toContain('clinic-booking demo is running');

      npm.kill(signal);
      // The bound only ends a failing test: a stop that hung would end in the forced exit, which must not show.
      await eventually(async () => expect([await up(ports.SERVER_PORT), await up(ports.PORT)]).toEqual([false, false]), { timeoutMs: 20_000, intervalMs: 100 });
      expect(output).not.toMatch(/forced exit/i);
    } finally {
      // Should the demo not have stopped, nothing of it may outlive the test or hold the ports for the next.
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    }
  }, 120_000);

  it("gives each service a metrics port of its own under METRICS_PORT: the server's, and METRICS_PORT+1 the BFF's", async () => {
    const metricsPort = await twoFreePorts();
    const demo = startDemo({ ...env, ...ports, METRICS_PORT: String(metricsPort) });
    try {
      await waitFor(demo, 'clinic-booking demo is running');
      expect(demo.output()).toContain(`http://127.0.0.1:${metricsPort}/metrics (server, METRICS_PORT)`);
      expect(demo.output()).toContain(`http://127.0.0.1:${metricsPort + 1}/metrics (BFF, METRICS_PORT+1)`);

      await (await fetch(`http://127.0.0.1:${ports.PORT}/api/treatments`)).arrayBuffer();
      const server = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const bff = await (await fetch(`http://127.0.0.1:${metricsPort + 1}/metrics`)).text();
      // Each its own service's: the server counts its /api/v1 routes, the BFF its /api ones and its cache.
      expect(server).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\}/);
      expect(server).not.toContain('bff_cache_lookups_total');
      expect(bff).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/treatments",status="200"\} 1/);
      expect(bff).toContain('bff_cache_lookups_total');
    } finally {
      demo.child.kill('SIGINT');
      expect(await demo.exited).toBe(0);
    }
  });

  it("stops with one line naming METRICS_PORT, and no banner, when the BFF's metrics port (METRICS_PORT+1) is taken", async () => {
    const metricsPort = await twoFreePorts();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(metricsPort + 1, '127.0.0.1', resolve));
    try {
      const demo = startDemo({ ...env, ...ports, METRICS_PORT: String(metricsPort) });
      expect(await demo.exited).toBe(1);
      const lines = demo.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`port ${metricsPort + 1} \\(the BFF's metrics, METRICS_PORT\\+1\\) is already in use.*set METRICS_PORT`));
      await expect(fetch(`http://127.0.0.1:${ports.SERVER_PORT}/healthz`)).rejects.toThrow();
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('stops both services with the one line of the service that failed, and no banner, when the BFF cannot start', async () => {
    // A setting only the BFF reads: the server has started by the time the BFF refuses it.
    const demo = startDemo({ ...env, ...ports, CACHE_TTL_MS: '0' });
    expect(await demo.exited).toBe(1);
    const lines = demo.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^BFF could not start: .*CACHE_TTL_MS/);
    expect(demo.output()).not.toContain('is running');
    await expect(fetch(`http://127.0.0.1:${ports.SERVER_PORT}/healthz`)).rejects.toThrow();
  });

  it('stops with one line when the database file is not a database', async () => {
    const bad = join(dir, 'not-a-database.db');
    writeFileSync(bad, 'this is not SQLite '.repeat(300));
    const demo = startDemo({ ...env, ...ports, DATABASE_URL: `file:${bad}`, DEMO_ENV_FILE: join(dir, 'bad.env') });
    expect(await demo.exited).toBe(1);
    const lines = demo.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('file is not a database');
  });
});
