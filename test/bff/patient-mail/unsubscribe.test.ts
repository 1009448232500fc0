import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsubscribeToken } from '../../../bff/patient-mail/patient-messages.js';
import type { PatientMailEvent } from '../../../bff/patient-mail/patient-mail-event.js';
import { renderPatientMail } from '../../../bff/patient-mail/patient-mail-render.js';
import { unsubscribeUrl } from '../../../bff/patient-mail/unsubscribe-link.js';
import { openSitesDatabase, type SitesDatabase } from '../../../bff/sites/sites-database.js';
import { book, BOTH_CHANNELS, outboxRows, startChangesStack } from '../changes/support/changes-stack.js';
import { startBff, startStubUpstream, type RunningBff } from '../support/bff-harness.js';
import { eventually } from '../../support/eventually.js';
import { ENGINES, sitesTestDatabase, type SitesTestDatabase } from '../sites/support/sites-test-database.js';

/**
 * The one-click unsubscribe page (RFC 8058) on a real BFF with its own
 * database (a SQLite file, and PostgreSQL when it runs): GET shows the
 * button and changes nothing; POST, as a mail provider sends it (form body
 * `List-Unsubscribe=One-Click`, no Origin), forgets the address and
 * withdraws that booking's pending patient messages, nothing else; the page
 * is in the row's language; an unknown or used token gets a page that says
 * nothing of whether it existed; and no log line carries a token.
 */

const NOW = Date.parse('2026-11-28T10:00:00Z');
const FORGET_AT = Date.parse('2026-12-10T10:00:00Z');
const CREDENTIALS = { appKey: 'unsubscribe-test-key', secret: 'unsubscribe-test-secret' };
const ONE_CLICK = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' };

describe.each(ENGINES)('the unsubscribe page on %s', (engine) => {
  let testDatabase: SitesTestDatabase;
  let database: SitesDatabase;
  let bff: RunningBff;
  let nextId = 0;

  beforeAll(async () => {
    testDatabase = await sitesTestDatabase(engine);
    database = await openSitesDatabase(testDatabase.url);
    const upstream = await startStubUpstream();
    bff = await startBff(upstream.api, CREDENTIALS, {}, undefined, undefined, undefined, undefined, undefined, database);
  });

  afterAll(async () => {
    await bff.close();
    await database.close();
    await testDatabase.remove();
  });

  /** A patient who asked for e-mail about a booking; returns the row's token. */
  async function patientMail(siteId: string, appointmentId: number, language: string): Promise<string> {
    const token = unsubscribeToken();
    await database.db
      .insertInto('patient_mail')
      .values({ site_id: siteId, appointment_id: appointmentId, email: `patient${appointmentId}@mail.example`, language, unsubscribe_token: token, created_at: NOW, forget_at: FORGET_AT })
      .execute();
    return token;
  }

  /** One outbox message about a booking; returns its id. */
  async function message(siteId: string, appointmentId: number, eventType: string, state: 'pending' | 'delivered' | 'dead' = 'pending'): Promise<string> {
    const id = `msg_unsubscribe_test_${engine}_${++nextId}`;
    await database.db
      .insertInto('outbox_messages')
      .values({
        id,
        site_id: siteId,
        channel: eventType.startsWith('patient.') ? 'email' : 'webhook',
        event_type: eventType,
        payload: JSON.stringify({ type: eventType, site_id: siteId, appointment_id: appointmentId }),
        state,
        created_at: NOW,
        next_attempt_at: NOW,
        lease_owner: null,
        lease_until: null,
        finished_at: state === 'pending' ? null : NOW,
        last_error: null,
        due_at: eventType === 'patient.reminder' ? NOW + 86_400_000 : null,
        appointment_id: appointmentId,
      })
      .execute();
    return id;
  }

  const rowOf = (token: string) => database.db.selectFrom('patient_mail').select(['site_id', 'appointment_id']).where('unsubscribe_token', '=', token).executeTakeFirst();
  const messageIds = async () => (await database.db.selectFrom('outbox_messages').select('id').execute()).map((row) => row.id).sort();
  const page = (token: string, init?: RequestInit) => fetch(`${bff.baseUrl}/mail/unsubscribe/${token}`, init);

  it('GET shows the page in the row’s language with one button that posts the one-click body, and changes nothing', async () => {
    const token = await patientMail('default', 501, 'de');
    await message('default', 501, 'patient.reminder');
    const before = await messageIds();

    const res = await page(token);
    const html = await res.text();

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('Keine E-Mails mehr zu dieser Buchung?');
    expect(html.match(/<form /g)).toHaveLength(1);
    expect(html).toContain('<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">E-Mails abbestellen</button></form>');
    expect(await rowOf(token)).toBeDefined();
    expect(await messageIds()).toEqual(before);
  });

  it('POST with List-Unsubscribe=One-Click and no Origin forgets the address and withdraws only that booking’s pending patient messages', async () => {
    const token = await patientMail('default', 601, 'fr');
    const withdrawn = [await message('default', 601, 'patient.confirmation'), await message('default', 601, 'patient.reminder')];
    const kept = [
      await message('default', 601, 'patient.confirmation', 'delivered'),
      await message('default', 601, 'patient.confirmation', 'dead'),
      await message('default', 601, 'booking.created'),
      await message('default', 602, 'patient.reminder'),
      await message('other-site', 601, 'patient.reminder'),
    ];
    const otherToken = await patientMail('default', 602, 'en');
    const otherSiteToken = await patientMail('other-site', 601, 'en');

    const res = await page(token, ONE_CLICK);
    const html = await res.text();

    expect(res.status).toBe(200);
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(html).toContain('Vous ne recevrez plus d’e-mails pour ce rendez-vous');
    expect(await rowOf(token)).toBeUndefined();
    const left = await messageIds();
    for (const id of withdrawn) expect(left).not.toContain(id);
    for (const id of kept) expect(left).toContain(id);
    expect(await rowOf(otherToken)).toBeDefined();
    expect(await rowOf(otherSiteToken)).toBeDefined();
  });

  it.runIf(engine === 'sqlite')('leaves the address nowhere in the SQLite file or its WAL', async () => {
    const token = await patientMail('default', 651, 'en');
    const address = Buffer.from('patient651@mail.example');
    const files = () => [testDatabase.file!, `${testDatabase.file!}-wal`].filter(existsSync).map((file) => readFileSync(file));
    expect(files().some((bytes) => bytes.includes(address))).toBe(true);

    await (await page(token, ONE_CLICK)).text();

    expect(files().some((bytes) => bytes.includes(address))).toBe(false);
  });

  it('answers a second POST of the same token as the first (a provider’s retry), in the browser’s language, and changes nothing', async () => {
    const token = await patientMail('default', 701, 'nl');
    expect((await page(token, ONE_CLICK)).status).toBe(200);
    const before = await messageIds();

    const again = await page(token, { ...ONE_CLICK, headers: { ...ONE_CLICK.headers, 'accept-language': 'es-ES,es;q=0.9' } });
    const html = await again.text();

    expect(again.status).toBe(200);
    expect(html).toContain('<html lang="es" dir="ltr">');
    expect(html).toContain('No recibirá más correos sobre esta reserva');
    expect(await messageIds()).toEqual(before);
  });

  it('shows a used token and one never issued the same page, with no button, in the browser’s language', async () => {
    const used = await patientMail('default', 801, 'en');
    await page(used, ONE_CLICK);
    const unknown = unsubscribeToken();
    const headers = { 'accept-language': 'de-AT, de;q=0.9, en;q=0.5' };

    const pages = await Promise.all([page(used, { headers }), page(unknown, { headers })]);
    const [usedHtml, unknownHtml] = await Promise.all(pages.map((res) => res.text()));

    expect(pages.map((res) => res.status)).toEqual([200, 200]);
    expect(usedHtml).toBe(unknownHtml);
    expect(usedHtml).toContain('<html lang="de" dir="ltr">');
    expect(usedHtml).toContain('Keine E-Mails abzubestellen');
    expect(usedHtml).not.toContain('<form');
  });

  it('answers a token that cannot be one (too short, odd characters) as an unknown one, in English without Accept-Language', async () => {
    const before = await messageIds();

    const shown = await page('short');
    const posted = await page('%3Cscript%3E', ONE_CLICK);

    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('No e-mails to stop');
    expect(posted.status).toBe(200);
    const html = await posted.text();
    expect(html).toContain('You will get no more e-mails about this booking');
    expect(html).not.toContain('<script>');
    expect(await messageIds()).toEqual(before);
  });

  it('writes an Arabic page right to left', async () => {
    const token = await patientMail('default', 901, 'ar');

    const html = await (await page(token)).text();

    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('إيقاف الرسائل');
  });

  it('allows its one inline style by its hash, and no script, in the page’s CSP', async () => {
    const res = await page(unsubscribeToken());
    const html = await res.text();
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const csp = res.headers.get('content-security-policy')!;
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));

    expect(directives['style-src']).toEqual(["'self'", `'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['form-action']).toEqual(["'self'"]);
    expect(html).not.toMatch(/<script|style="/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('logs the route’s pattern, never a token', async () => {
    const token = await patientMail('default', 1001, 'en');
    const unknown = unsubscribeToken();
    const before = bff.logs.length;

    await (await page(token)).text();
    await (await page(token, ONE_CLICK)).text();
    await (await page(unknown)).text();
    await (await fetch(`${bff.baseUrl}/mail/unsubscribe/${unknown}?utm_source=${unknown}`, ONE_CLICK)).text();

    const lines = () => bff.logs.slice(before);
    // Each line is written once its answer has finished, which may come just after its body was read.
    await eventually(() => expect(lines().filter((line) => line.includes('/mail/unsubscribe/:token'))).toHaveLength(4));
    for (const line of lines()) {
      expect(line.includes(token), `token in ${line}`).toBe(false);
      expect(line.includes(unknown), `token in ${line}`).toBe(false);
    }
  });
});

describe('the unsubscribe page', () => {
  it('is limited per client IP, under the API’s limit', async () => {
    const testDatabase = await sitesTestDatabase('sqlite');
    const database = await openSitesDatabase(testDatabase.url);
    try {
      const upstream = await startStubUpstream();
      const bff = await startBff(upstream.api, CREDENTIALS, { apiRateLimit: { limit: 2, windowMs: 60_000 } }, undefined, undefined, undefined, undefined, undefined, database);
      const token = unsubscribeToken();

      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${bff.baseUrl}/mail/unsubscribe/${token}`)).status);

      expect(statuses).toEqual([200, 200, 429]);
      await bff.close();
    } finally {
      await database.close();
      await testDatabase.remove();
    }
  });

  it('answers 503 with a page that says nothing changed when the database fails, and logs no token', async () => {
    const testDatabase = await sitesTestDatabase('sqlite');
    const database = await openSitesDatabase(testDatabase.url);
    try {
      const upstream = await startStubUpstream();
      const bff = await startBff(upstream.api, CREDENTIALS, {}, undefined, undefined, undefined, undefined, undefined, database);
      await database.close();
      const token = unsubscribeToken();

      const res = await fetch(`${bff.baseUrl}/mail/unsubscribe/${token}`, ONE_CLICK);

      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('60');
      expect(await res.text()).toContain('Nothing was changed');
      await eventually(() => expect(bff.logs.some((line) => line.includes('unsubscribe page: the database failed'))).toBe(true));
      expect(bff.logs.some((line) => line.includes(token))).toBe(false);
    } finally {
      await testDatabase.remove();
    }
  });

  it('is not served by a BFF without its database, which sends patients no mail', async () => {
    const upstream = await startStubUpstream();
    const bff = await startBff(upstream.api, CREDENTIALS);

    expect((await fetch(`${bff.baseUrl}/mail/unsubscribe/${unsubscribeToken()}`)).status).toBe(404);
  });
});

describe('a real booking’s e-mails', () => {
  it('are rendered from what the booking queued, and stopped by the link they carry, the clinic’s message kept', async () => {
    const stack = await startChangesStack({
      notifications: { email: undefined, webhook: BOTH_CHANNELS.webhook, mailRelay: { url: 'smtp://127.0.0.1:2525', from: 'bookings@test-dental.example' } },
      bff: { publicOrigin: 'https://book.test-dental.example', allowedOrigins: ['https://clinic.example'] },
    });
    await book(stack, { patient_email: 'jane@example.com', email_consent: true, language: 'nl', page_url: 'https://clinic.example/book' });
    const { unsubscribe_token: token } = await stack.database.db.selectFrom('patient_mail').select('unsubscribe_token').executeTakeFirstOrThrow();
    const queued = await outboxRows(stack.database);
    const confirmation = queued.find((row) => row.event_type === 'patient.confirmation')!.event as unknown as PatientMailEvent;

    const link = unsubscribeUrl(stack.bff.config.publicOrigin!, token);
    const mail = renderPatientMail(confirmation, { unsubscribeUrl: link });
    expect(mail.subject).toMatch(/^Uw afspraak op /);
    expect(mail.html).toContain(`<a href="${link}"`);
    const res = await fetch(link.replace('https://book.test-dental.example', stack.bff.baseUrl), ONE_CLICK);

    expect(res.status).toBe(200);
    expect(await res.text()).toContain('U krijgt geen e-mails meer over deze boeking');
    expect(await stack.database.db.selectFrom('patient_mail').select('unsubscribe_token').execute()).toEqual([]);
    expect((await outboxRows(stack.database)).map((row) => row.event_type)).toEqual(['booking.created']);
  });
});
