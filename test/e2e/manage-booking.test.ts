import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { openSitesDatabase, type SitesDatabase } from '../../bff/sites/sites-database.js';
import { MANAGE_FRAGMENT, normaliseReference } from '../../contract/rules/bff-api.js';
import { demoClinic } from '../../server/demo/demo-clinic.js';
import { eventually } from '../support/eventually.js';
import { bookingSteps, LOADED_TIMES, periodHeader } from './support/booking-steps.js';
import { launchBrowser, newContext, openDemo, waitForReference, widget } from './support/browser.js';
import {
  bffDatabase,
  bffSettings,
  PATIENT,
  startBffProcess,
  startClinicMailbox,
  startReferenceClinic,
  type BffDatabase,
  type BffProcess,
  type ClinicMailbox,
  type ReceivedMail,
  type ReferenceClinic,
} from './support/outbox-stack.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { ensureServicesBuilt, ensureWidgetBuilt, runClinicCli, WIDGET_DIR, weekdayAhead } from './support/stack.js';

/**
 * A booking managed by its link, as a patient does it, in Chromium: booked on
 * the demo page in one browser, its manage link opened in others (no shared
 * storage), another time asked for and then a cancellation; the clinic's
 * staff cancel it in their system (the server's CLI), and the link then shows
 * it cancelled. Behind the page: the reference server with the demo clinic,
 * a real BFF process (`node dist/bff/main.js`) with its own database whose
 * outbox worker mails the clinic through a real SMTP server, read with
 * mailparser, and a recording proxy in front of the BFF that shows what a
 * server sees of each request: never the reference in the link's fragment.
 *
 * The steps build on each other, in order: one booking's life.
 */

const MAIL_DOMAIN = 'manage-e2e.test';
const DENTIST = 'Dr Amara Okafor';
const TREATMENT = 'Dental check-up';
const BOOKED_TIME = '10:00';
const MESSAGE = 'Mornings suit me best; I can also come at short notice.';

/** The next weekday (Mon-Fri) after `date` (YYYY-MM-DD). */
function weekdayAfter(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  do day.setUTCDate(day.getUTCDate() + 1);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6);
  return day.toISOString().slice(0, 10);
}

const BOOKED_DATE = weekdayAhead(3);
const DAY_A = weekdayAfter(BOOKED_DATE);
const DAY_B = weekdayAfter(DAY_A);
/** The wished starts, most wished first: on purpose not in the order of the calendar. */
const WISHED = [
  { date: DAY_B, time: '14:30' },
  { date: DAY_A, time: '09:15' },
  { date: DAY_B, time: '11:00' },
];

/** A start as the clinic's English e-mail writes it (bff/notifications/clinic-mail.ts): formatted by the BFF's Node, so by this one. */
const mailStart = ({ date, time }: { date: string; time: string }) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(`${date}T${time}:00Z`));

/**
 * A day and a start as the widget writes them in the page's language: formatted in the browser, whose
 * Intl data the widget uses (Chromium's and Node's may word a date apart).
 */
const pageWords = (page: Page, start: { date: string; time: string }) =>
  page.evaluate(({ date, time }) => {
    const lang = (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement.lang || 'en';
    const day = new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
    const clock = new Intl.DateTimeFormat(lang, { timeStyle: 'short', timeZone: 'UTC' }).format(new Date(`2000-01-01T${time}:00Z`));
    return { day, clock, start: `${day}, ${clock}` };
  }, start);

/**
 * The file a download link gives, as the browser saves it: clicked, and read from where Chromium put it.
 * (The page cannot fetch its own blob: URL: the demo page's CSP allows no blob: in connect-src.)
 */
async function download(page: Page, link: Locator): Promise<{ name: string; text: string }> {
  const saving = page.waitForEvent('download');
  await link.click();
  const saved = await saving;
  return { name: saved.suggestedFilename(), text: readFileSync(await saved.path(), 'utf8') };
}

/** expect.poll's bound: it only ends a failing test, so far above what a passing one takes on a busy machine. */
const POLL = { timeout: 15_000 };

const squeeze = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The manage view's parts; Playwright's locators pierce the widget's open shadow roots. */
function manageView(page: Page) {
  const view = page.locator('clinic-booking-manage');
  const button = (name: string) => view.getByRole('button', { name, exact: true });
  return {
    view,
    heading: view.locator('#manage-heading'),
    card: view.locator('dl'),
    badge: view.locator('dl .badge'),
    outcome: view.locator('.outcome'),
    failure: view.locator('#failure'),
    link: view.locator('#manage-link'),
    button,
    /**
     * On the picker: shows the month of `date` ("Previous month" or "Next month": the wished days
     * may lie either side of a month's end) and chooses the day, then waits for its times.
     */
    async pickDay(date: string): Promise<void> {
      const day = view.locator(`[role="grid"] [data-date="${date}"]`);
      for (let i = 0; i < 13 && (await day.count()) === 0; i++) {
        const shown = (await view.locator('[role="grid"] [data-date]').first().getAttribute('data-date')) ?? '';
        await button(date < shown ? 'Previous month' : 'Next month').click();
      }
      await day.click();
      // Chosen: from this render on, the times shown are this day's (loading, then its own).
      await view.locator(`[role="grid"] [aria-selected="true"] [data-date="${date}"]`).waitFor();
    },
    /** The button of a time of the day chosen, once the day's availability has come. */
    slot: (time: string): Locator => view.locator(`${LOADED_TIMES} [data-time="${time}"]`),
    /** Once the day's availability has come: opens the period of `time` with its header where another is open. */
    async showTime(time: string): Promise<void> {
      await view.locator(LOADED_TIMES).waitFor();
      if ((await view.locator(`${LOADED_TIMES} [data-time="${time}"]`).count()) === 0) await view.locator(periodHeader(time)).click();
    },
    chips: async () => (await view.locator('.chip span:not(.n)').allTextContents()).map(squeeze),
  };
}

describe('a booking managed by its link in Chromium, the clinic told by e-mail', { timeout: 120_000 }, () => {
  let reference: ReferenceClinic;
  let database: BffDatabase;
  let mailbox: ClinicMailbox;
  let bff: BffProcess;
  let proxy: RecordingProxy;
  let db: SitesDatabase;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  /** What the steps learn, in order. */
  let bookingRef = '';
  let link = '';
  let bookingIcs = '';
  let appointmentId = 0;
  let second: Page;

  beforeAll(async () => {
    await Promise.all([ensureServicesBuilt(), ensureWidgetBuilt()]);
    reference = await startReferenceClinic(demoClinic);
    database = await bffDatabase('sqlite');
    mailbox = await startClinicMailbox();
    bff = await startBffProcess(
      {
        ...bffSettings(reference, database.url),
        SMTP_URL: mailbox.url,
        MAIL_FROM: `bookings@${MAIL_DOMAIN}`,
        CLINIC_NOTIFY_EMAIL: `reception@${MAIL_DOMAIN}`,
        DEMO_PAGE: 'true',
        WIDGET_DIR,
      },
      database.folder,
    );
    proxy = await startRecordingProxy(new URL(bff.api).origin);
    db = await openSitesDatabase(database.url);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await db?.close();
    await proxy?.close();
    await bff?.stop();
    await mailbox?.close();
    await reference?.close();
    await database?.remove();
  });

  /** A browser context of its own: its own storage, cookies and cache, as another device. */
  async function freshContext(options: Parameters<typeof newContext>[1] = {}): Promise<BrowserContext> {
    const context = await newContext(browser, options);
    contexts.push(context);
    return context;
  }

  /** The e-mails of this booking whose subject starts with `kind` ("New booking", "Reschedule request", …). */
  const mailsOf = (kind: string): ReceivedMail[] =>
    mailbox.received.filter((mail) => mail.subject.startsWith(`${kind}: `) && mail.subject.endsWith(`, ${bookingRef}`));

  /**
   * Waits until the outbox holds `count` messages, every one delivered: from then on nothing more is
   * sent, so the mailbox holds all it will ever get (its mail is in before the relay's 250 that marks it).
   */
  async function allDelivered(count: number): Promise<void> {
    await eventually(
      async () => {
        const rows = await db.db.selectFrom('outbox_messages').select(['event_type', 'state', 'last_error']).execute();
        expect(rows).toHaveLength(count);
        expect(rows.filter((row) => row.state !== 'delivered')).toEqual([]);
      },
      { timeoutMs: 30_000 },
    );
  }

  /** Opens a manage link in `page` and waits for the view to show the booking's card. */
  async function openLink(page: Page): Promise<ReturnType<typeof manageView>> {
    await page.goto(link);
    const manage = manageView(page);
    await manage.badge.waitFor();
    return manage;
  }

  it('books on the demo page, and offers the manage link on the confirmation', async () => {
    const context = await freshContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await openDemo(page, `${proxy.origin}/`);
    const steps = bookingSteps(page);
    await steps.chooseTreatment(TREATMENT);
    await steps.chooseDentist(DENTIST);
    await steps.pickDay(BOOKED_DATE);
    await steps.pickTime(BOOKED_TIME);
    await steps.fillDetails(PATIENT.name, PATIENT.phone);
    await steps.book();
    bookingRef = await waitForReference(page);
    expect(bookingRef).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);

    const result = widget(page).el.locator('[part="booking-result"]');
    const calendarFile = await download(page, result.locator('a[download="appointment.ics"]'));
    expect(calendarFile.name).toBe('appointment.ics');
    bookingIcs = calendarFile.text;
    expect(bookingIcs).toContain(`UID:${bookingRef}@clinic-booking`);

    // "Manage booking" on the confirmation: the view, with the link to keep in a field and a copy button.
    await result.getByRole('button', { name: 'Manage booking', exact: true }).click();
    const manage = manageView(page);
    await manage.link.waitFor();
    link = await manage.link.inputValue();
    expect(link).toBe(`${proxy.origin}/#${MANAGE_FRAGMENT}=${bookingRef}`);
    await manage.button('Copy link').click();
    const copied = () =>
      page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
    await expect.poll(copied, POLL).toBe(link);
    // The calendar file names the same link, to come back by.
    expect(bookingIcs.replace(/\r\n /g, '').replace(/\r\n/g, '\n')).toContain(`DESCRIPTION:Manage booking: ${link}\n`);
  });

  it('opens the link in another browser, asks for three other times with a message, and the clinic gets them by e-mail', async () => {
    expect(link, 'the booking step gave no link').not.toBe('');
    second = await (await freshContext()).newPage();
    const manage = await openLink(second);

    // The booking, looked up by the reference of the link alone: nothing of the first browser is here.
    expect(await manage.badge.getAttribute('data-status')).toBe('Scheduled');
    const card = squeeze(await manage.card.textContent());
    const booked = await pageWords(second, { date: BOOKED_DATE, time: BOOKED_TIME });
    for (const shown of [TREATMENT, DENTIST, booked.day, booked.clock]) expect(card).toContain(shown);
    // The reference has left the address bar (and the history entry), once the view shows.
    await expect.poll(() => second.url(), POLL).toBe(`${proxy.origin}/`);

    await manage.button('Ask for another time').click();
    await manage.view.locator('#move-heading').waitFor();
    // The picker reads the same availability as the booking form: the booked dentist's 10:00 is held by this booking.
    await manage.pickDay(BOOKED_DATE);
    await manage.slot(BOOKED_TIME).waitFor();
    expect(await manage.slot(BOOKED_TIME).isDisabled()).toBe(true);
    expect(await manage.slot('10:30').isDisabled()).toBe(false);

    for (const [i, start] of WISHED.entries()) {
      await manage.pickDay(start.date);
      await manage.showTime(start.time);
      const slot = manage.slot(start.time);
      await slot.waitFor();
      expect(await slot.isDisabled(), `${start.date} ${start.time} is taken`).toBe(false);
      await slot.click();
      await expect.poll(() => manage.chips(), POLL).toHaveLength(i + 1);
    }
    expect(squeeze(await manage.view.locator('.chosen').textContent())).toContain('You have chosen 3 times.');
    await manage.view.locator('#message').fill(MESSAGE);
    const answered = second.waitForResponse((res) => res.url().endsWith('/api/appointments/change-requests'));
    await manage.button('Send request').click();
    expect((await answered).status()).toBe(201);

    // Taken: the view says so, with the three times in the order asked.
    await manage.outcome.waitFor();
    const outcome = manage.outcome;
    expect(squeeze(await outcome.locator('p').first().textContent())).toMatch(/^Another time requested on /);
    const asked = (await outcome.locator('ol.asked li').allTextContents()).map(squeeze);
    expect(asked).toEqual(await Promise.all(WISHED.map(async (start) => (await pageWords(second, start)).start)));
    expect(await manage.failure.count()).toBe(0);
    expect(second.url()).toBe(`${proxy.origin}/`);

    // The clinic's e-mails: the booking, then the request, each once, with what staff need to act.
    await allDelivered(2);
    expect(mailsOf('New booking')).toHaveLength(1);
    const moves = mailsOf('Reschedule request');
    expect(moves).toHaveLength(1);
    const move = moves[0]!;
    expect(move.to).toEqual([`reception@${MAIL_DOMAIN}`]);
    expect(move.text).toContain(`Booking reference: ${bookingRef}\n`);
    const wished = WISHED.map((start, i) => `${i + 1}. ${mailStart(start)}`).join('\n');
    expect(move.text).toContain(`Preferred new times, in order of preference:\n${wished}\n`);
    expect(move.text).toContain(`Message from the patient:\n${MESSAGE}\n`);
    expect(move.text).toContain(`Dentist: ${DENTIST}\n`);
    // The appointment's id in the clinic's system, which the staff's next step needs.
    appointmentId = Number(/^Appointment ID \(clinic system\): (\d+)$/m.exec(move.text)?.[1]);
    const [row] = await reference.server.db.selectFrom('appointments').selectAll().where('patient_name', '=', PATIENT.name).execute();
    expect(appointmentId).toBe(row?.appointment_id);
  });

  it('takes a cancellation asked for by the link in a third browser, and answers a second one as asked already, mailing once', async () => {
    expect(appointmentId, 'the move step did not finish').toBeGreaterThan(0);
    const third = await (await freshContext()).newPage();
    const manage = await openLink(third);
    // What was asked before shows here too, from the BFF: another time, with its three times; a cancellation is still open.
    expect(squeeze(await manage.outcome.textContent())).toContain('Another time requested on ');
    expect(await manage.outcome.locator('ol.asked li').count()).toBe(3);
    expect(await manage.button('Ask for another time').count()).toBe(0);

    await manage.button('Request cancellation').click();
    await manage.view.locator('#confirm-heading').waitFor();
    const first = third.waitForResponse((res) => res.url().endsWith('/api/appointments/change-requests'));
    await manage.button('Yes, request cancellation').click();
    const taken = await first;
    expect(taken.status()).toBe(201);
    const firstAt = ((await taken.json()) as { data: { requested_at: string } }).data.requested_at;
    await expect.poll(async () => squeeze(await manage.outcome.textContent()), POLL).toContain('Cancellation requested on ');
    expect(await manage.button('Request cancellation').count()).toBe(0);

    // The second browser still shows the card it loaded before: its "Request cancellation" is now a second request.
    const stale = manageView(second);
    await stale.button('Request cancellation').click();
    await stale.view.locator('#confirm-heading').waitFor();
    const again = second.waitForResponse((res) => res.url().endsWith('/api/appointments/change-requests'));
    await stale.button('Yes, request cancellation').click();
    const repeated = await again;
    expect(repeated.status()).toBe(200);
    expect(((await repeated.json()) as { data: unknown }).data).toMatchObject({ kind: 'cancel', already_requested: true, requested_at: firstAt });
    // Shown as taken, as it is: no error.
    await expect.poll(async () => squeeze(await stale.outcome.textContent()), POLL).toContain('Cancellation requested on ');
    expect(await stale.failure.count()).toBe(0);

    // One cancellation mail: the second request sent nothing.
    await allDelivered(3);
    const cancels = mailsOf('Cancellation request');
    expect(cancels).toHaveLength(1);
    expect(cancels[0]!.text).toContain(`Booking reference: ${bookingRef}\n`);
    expect(cancels[0]!.text).toContain(`Appointment ID (clinic system): ${appointmentId}\n`);
    expect([mailsOf('New booking').length, mailsOf('Reschedule request').length, mailbox.received.length]).toEqual([1, 1, 3]);
  });

  it("shows the booking cancelled once the clinic's staff cancel it, with a fresh booking and a calendar file that removes it", async () => {
    expect(appointmentId, 'the earlier steps did not finish').toBeGreaterThan(0);
    const printed = await runClinicCli(reference.server.dbPath, ['appointments', 'set-status', '--id', String(appointmentId), '--status', 'Cancelled']);
    expect(printed).toEqual({ appointment_id: appointmentId, status: 'Cancelled' });

    // The link opened again in the second browser, in a new tab: the tab that shows the page already would
    // take it as a move within the page (only the fragment differs), which the widget does not follow.
    const page = await second.context().newPage();
    const manage = await openLink(page);
    expect(await manage.badge.getAttribute('data-status')).toBe('Cancelled');
    expect(squeeze(await manage.outcome.textContent())).toContain('This appointment is cancelled.');
    expect(await manage.button('Request cancellation').count()).toBe(0);
    expect(await manage.button('Ask for another time').count()).toBe(0);

    // The calendar file: the booking's own event (its UID), cancelled (RFC 5546).
    const remove = manage.view.locator('a[download="appointment-cancelled.ics"]');
    await remove.waitFor();
    expect(squeeze(await remove.textContent())).toBe('Remove from calendar');
    const cancelFile = await download(page, remove);
    expect(cancelFile.name).toBe('appointment-cancelled.ics');
    const ics = cancelFile.text.split('\r\n');
    const uid = bookingIcs.split('\r\n').find((line) => line.startsWith('UID:'));
    expect(uid).toBe(`UID:${bookingRef}@clinic-booking`);
    expect(ics).toContain('METHOD:CANCEL');
    expect(ics).toContain(uid);
    expect(ics).toContain('STATUS:CANCELLED');
    expect(ics.find((line) => line.startsWith('DTSTART:'))).toBe(bookingIcs.split('\r\n').find((line) => line.startsWith('DTSTART:')));

    // A fresh booking: the view gives way to the booking form's first step.
    await manage.button('Book a new appointment').click();
    await manage.view.waitFor({ state: 'detached' });
    await expect.poll(() => bookingSteps(page).heading(), POLL).toBe('Step 1 of 5 Treatment');
    // Nothing more was sent to the clinic: the staff acted in their own system.
    expect(mailbox.received).toHaveLength(3);
  });

  it('never lets the reference of a link reach a server: no request line, Referer or log line holds it', async () => {
    expect(appointmentId, 'the earlier steps did not finish').toBeGreaterThan(0);
    const secrets = [bookingRef, normaliseReference(bookingRef), `${MANAGE_FRAGMENT}=`];
    // What the proxy passed on: the demo page opened by each link, the view's lookups and its three requests (in POST bodies).
    const seen = proxy.seen.map(({ method, url }) => `${method} ${url}`);
    // Each link opened (the second browser twice, the third once) and the first browser's demo page.
    expect(seen.filter((line) => line === 'GET /')).toHaveLength(4);
    expect(seen).toContain('POST /api/appointments/status');
    expect(seen.filter((line) => line === 'POST /api/appointments/change-requests')).toHaveLength(3);
    for (const request of proxy.seen) {
      for (const secret of secrets) {
        expect(request.url).not.toContain(secret);
        expect(request.referer ?? '').not.toContain(secret);
      }
    }
    // What the BFF logged of every request it answered (and of each delivery): neither the reference nor the patient.
    const paths = bff.logs().flatMap((line) => ((line.req as { path?: string } | undefined)?.path ? [String((line.req as { path: string }).path)] : []));
    expect(paths).toContain('/api/appointments/change-requests');
    const output = bff.output();
    for (const secret of [...secrets, PATIENT.name, PATIENT.phone]) expect(output).not.toContain(secret);
  });
});
