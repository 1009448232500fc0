import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openSitesDatabase, type SitesDatabase } from '../../bff/sites/sites-database.js';
import { MANAGE_FRAGMENT, UNSUBSCRIBE_PATH } from '../../contract/rules/bff-api.js';
import { demoClinic } from '../../server/demo/demo-clinic.js';
import { eventually } from '../support/eventually.js';
import { freePort } from '../support/free-port.js';
import { bookingSteps, type StepWords } from './support/booking-steps.js';
import { launchBrowser, newContext, waitForReference, widget } from './support/browser.js';
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
import { ensureServicesBuilt, ensureWidgetBuilt, startClinicSite, WIDGET_DIR, weekdayAhead, type ClinicSite } from './support/stack.js';

/**
 * A patient's confirmation by e-mail (decision 19), as a patient gets it, in
 * Chromium: a French page of the clinic's own website (`<html lang="fr">`,
 * on another origin than the BFF) with the widget pasted in; the patient
 * ticks the e-mail box, types an address and books. Behind the page: the
 * reference server with the demo clinic, a real BFF process (`node
 * dist/bff/main.js`) with its own database, whose outbox worker sends the
 * confirmation through a real SMTP server, read with mailparser. Then the
 * mail's manage link is opened in another browser, and its unsubscribe
 * page is used; and a booking whose box was ticked, typed in, then unticked
 * again sends the patient nothing.
 *
 * The steps build on each other, in order: one booking's mail, then another booking.
 */

const MAIL_DOMAIN = 'confirmation-e2e.test';
const PATIENT_EMAIL = 'camille.martin@patient-e2e.test';
/** The address typed and then unticked, on the second booking: nothing may ever go to it. */
const CHANGED_MIND_EMAIL = 'plus.de.mail@patient-e2e.test';
const CLINIC = 'Bright Smile Dental';
const DENTIST = 'Dr Amara Okafor';
const TREATMENT = 'Dental check-up';
const BOOKED_DATE = weekdayAhead(3);
const BOOKED_TIME = '10:00';
const SECOND_TIME = '11:30';
/** The clinic's page, in French; it is opened with a campaign's query, which no link of the mail may keep. */
const PAGE_PATH = '/fr/rendez-vous.html';
const PAGE_QUERY = '?utm_source=lettre';

/** The widget's words (widget/i18n/fr.ts) that the steps click by. */
const FRENCH_STEPS: StepWords = { nextMonth: 'Mois suivant', next: 'Continuer' };
/** French sets a no-break space before a colon (bff/patient-mail/patient-words/fr.ts). */
const COLON = '\u00a0: ';

/** The booked day and time as the French mail writes them: formatted by the BFF's Node, so by this one. */
const shortDate = new Intl.DateTimeFormat('fr-FR', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
  new Date(`${BOOKED_DATE}T00:00:00Z`),
);
const longDate = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${BOOKED_DATE}T00:00:00Z`));

/** Text with its runs of spaces and line breaks made one space; French's no-break spaces stay as they are. */
const squeeze = (text: string | null) => (text ?? '').replace(/[ \t\r\n]+/g, ' ').trim();

/** The page of the clinic's website: French, the widget's two lines pasted in as docs/embedding.md gives them. */
const frenchPage = (bffOrigin: string) => `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<title>Prendre rendez-vous – ${CLINIC}</title>
<script type="module" src="${bffOrigin}/widget/clinic-booking.js"></script>
</head>
<body>
<h1>Prendre rendez-vous</h1>
<clinic-booking><a href="tel:+442079460958">Appelez-nous</a></clinic-booking>
</body>
</html>`;

describe('a French confirmation by e-mail, from the booking to the unsubscribe page, in Chromium', { timeout: 120_000 }, () => {
  let reference: ReferenceClinic;
  let database: BffDatabase;
  let mailbox: ClinicMailbox;
  let bff: BffProcess;
  let site: ClinicSite;
  let db: SitesDatabase;
  let browser: Browser;
  let publicOrigin = '';
  let page = '';
  const contexts: BrowserContext[] = [];

  /** What the steps learn, in order. */
  let bookingRef = '';
  let confirmation: ReceivedMail | undefined;
  let manageLink = '';
  let unsubscribeUrl = '';

  beforeAll(async () => {
    await Promise.all([ensureServicesBuilt(), ensureWidgetBuilt()]);
    reference = await startReferenceClinic(demoClinic);
    database = await bffDatabase('sqlite');
    mailbox = await startClinicMailbox();
    site = await startClinicSite();
    // PUBLIC_ORIGIN is the BFF's origin as browsers reach it (the unsubscribe link's), so its port is chosen first.
    const port = await freePort();
    publicOrigin = `http://127.0.0.1:${port}`;
    bff = await startBffProcess(
      {
        ...bffSettings(reference, database.url),
        PORT: String(port),
        PUBLIC_ORIGIN: publicOrigin,
        ALLOWED_ORIGINS: site.origin,
        SMTP_URL: mailbox.url,
        MAIL_FROM: `bookings@${MAIL_DOMAIN}`,
        CLINIC_NOTIFY_EMAIL: `reception@${MAIL_DOMAIN}`,
        WIDGET_DIR,
      },
      database.folder,
    );
    site.pages.set(PAGE_PATH, frenchPage(publicOrigin));
    page = `${site.origin}${PAGE_PATH}`;
    db = await openSitesDatabase(database.url);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await db?.close();
    await bff?.stop();
    await site?.close();
    await mailbox?.close();
    await reference?.close();
    await database?.remove();
  });

  /**
   * A browser context of its own (its own storage and cache, as another device), in en-GB as
   * newContext makes it: what the pages show in French comes from the page and the booking, not
   * from the browser's language.
   */
  async function freshPage(): Promise<Page> {
    const context = await newContext(browser);
    contexts.push(context);
    return context.newPage();
  }

  /** The booking form of the French page, up to the details step: the treatment, the dentist, the day and `time`. */
  async function toDetails(tab: Page, time: string) {
    await tab.goto(`${page}${PAGE_QUERY}`);
    await widget(tab).form.waitFor();
    const steps = bookingSteps(tab, FRENCH_STEPS);
    await steps.chooseTreatment(TREATMENT);
    await steps.chooseDentist(DENTIST);
    await steps.pickDay(BOOKED_DATE);
    await steps.pickTime(time);
    return steps;
  }

  /** Every message of the outbox, its kind and state, in the order of their kinds. */
  const outbox = () => db.db.selectFrom('outbox_messages').select(['event_type', 'state']).orderBy('event_type').execute();

  it('books in French with the e-mail box ticked, and the French confirmation reaches that address', async () => {
    const tab = await freshPage();
    const steps = await toDetails(tab, BOOKED_TIME);
    // Offered, in the page's language, unticked.
    const box = widget(tab).form.locator('#email_consent');
    expect(squeeze(await widget(tab).form.locator('label[for="email_consent"]').textContent())).toBe('Recevoir une confirmation et un rappel par e-mail');
    expect(await box.isChecked()).toBe(false);
    await steps.fillDetails(PATIENT.name, PATIENT.phone, PATIENT_EMAIL);
    await steps.book();
    bookingRef = await waitForReference(tab);
    expect(bookingRef).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
    const result = widget(tab).el.locator('[part="booking-result"]');
    expect(squeeze(await result.textContent())).toContain(`Nous envoyons la confirmation à ${PATIENT_EMAIL}.`);

    // The outbox worker sends it through the relay: one mail to the patient, beside the clinic's own.
    const mail = await eventually(
      () => {
        const mails = mailbox.received.filter((received) => received.to.includes(PATIENT_EMAIL));
        expect(mails).toHaveLength(1);
        return mails[0]!;
      },
      { timeoutMs: 30_000 },
    );
    confirmation = mail;
    expect(mail.to).toEqual([PATIENT_EMAIL]);
    expect(mail.from).toBe(`bookings@${MAIL_DOMAIN}`);
    expect(mail.subject).toBe(`Votre rendez-vous du ${shortDate} à ${BOOKED_TIME} est confirmé (${CLINIC})`);

    // The text, in French: what the patient needs to come, the reference the page showed, and the way to stop.
    const text = mail.text;
    expect(text.startsWith(`Votre rendez-vous est réservé\n\nMerci d’avoir réservé auprès de ${CLINIC}. Voici les détails de votre rendez-vous.\n`)).toBe(true);
    const lines = text.split('\n');
    expect(lines).toContain(`Date${COLON}${longDate}`);
    expect(lines.find((line) => line.startsWith(`Heure${COLON}`))).toMatch(new RegExp(`^Heure${COLON}${BOOKED_TIME} \\(.+\\)$`));
    expect(lines).toContain(`Soin${COLON}${TREATMENT}`);
    expect(lines).toContain(`Dentiste${COLON}${DENTIST}`);
    expect(lines).toContain(`Cabinet${COLON}${CLINIC}`);
    expect(lines).toContain(`Référence de réservation${COLON}${bookingRef}`);
    expect(lines).toContain('Pour ajouter le rendez-vous à votre calendrier, ouvrez le fichier joint.');

    // The manage link: the page booked on, without its query, the reference in the fragment.
    manageLink = lines.find((line) => line.startsWith(`Gérer ou annuler votre rendez-vous${COLON}`))?.split(COLON)[1] ?? '';
    expect(manageLink).toBe(`${page}#${MANAGE_FRAGMENT}=${bookingRef}`);
    expect(mail.html).toContain(`href="${manageLink}"`);
    expect(mail.html).toMatch(/^<!DOCTYPE html>\n<html lang="fr" dir="ltr">/);

    // One-click unsubscribe (RFC 8058): the headers, and the same page linked in the text.
    unsubscribeUrl = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1] ?? '';
    expect(unsubscribeUrl).toMatch(new RegExp(`^${publicOrigin}${UNSUBSCRIBE_PATH}/[A-Za-z0-9_-]{43}$`));
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(text).toContain(`\n-- \nVous recevez cet e-mail parce que vous avez demandé une confirmation et un rappel par e-mail`);
    expect(text.endsWith(`\nNe plus recevoir de rappels${COLON}${unsubscribeUrl}\n`)).toBe(true);
    // The token says nothing of the booking.
    expect(unsubscribeUrl).not.toContain(bookingRef);

    // The calendar entry, the widget's own (its UID the reference), its description the manage link; read
    // unfolded (RFC 5545 folds its lines at 75 octets).
    expect(mail.attachments.map(({ filename, contentType }) => ({ filename, contentType }))).toEqual([{ filename: 'appointment.ics', contentType: 'text/calendar' }]);
    const [attached] = mail.attachments;
    const ics = attached!.text.replace(/\r\n[ \t]/g, '').split('\r\n');
    expect(ics).toContain(`UID:${bookingRef}@clinic-booking`);
    expect(ics).toContain(`DESCRIPTION:Gérer le rendez-vous: ${manageLink}`);
    // A file to open, not an iTIP message: a Content-Type method and a METHOD line go together or not at all (RFC 5545, 3.7.2).
    expect(attached!.params.method?.toUpperCase()).toBe(ics.find((line) => line.startsWith('METHOD:'))?.slice('METHOD:'.length));

    // Nothing of the patient's own: not their name, not their phone.
    for (const own of [PATIENT.name, PATIENT.phone]) {
      expect(text).not.toContain(own);
      expect(mail.html).not.toContain(own);
    }
  });

  it("opens the mail's manage link in another browser: the widget shows that booking's manage view, in French", async () => {
    expect(manageLink, 'the booking step gave no link').not.toBe('');
    const tab = await freshPage();
    await tab.goto(manageLink);
    const view = tab.locator('clinic-booking-manage');
    const badge = view.locator('dl .badge');
    await badge.waitFor();

    expect(squeeze(await view.locator('#manage-heading').textContent())).toBe('Gérer le rendez-vous');
    expect(await badge.getAttribute('data-status')).toBe('Scheduled');
    expect(squeeze(await badge.textContent())).toBe('Prévu');
    const card = squeeze(await view.locator('dl').textContent());
    // The day as the widget writes it in French: formatted in the browser, whose Intl data the widget uses.
    const day = await tab.evaluate((date) => new Intl.DateTimeFormat('fr', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`)), BOOKED_DATE);
    for (const shown of [TREATMENT, DENTIST, day, BOOKED_TIME]) expect(card).toContain(shown);
    expect(await view.getByRole('button', { name: 'Demander l’annulation', exact: true }).count()).toBe(1);
    // The reference leaves the address bar once the view shows.
    await expect.poll(() => tab.url(), { timeout: 15_000 }).toBe(page);
  });

  it('opens the unsubscribe page in French, and its button leads to the French page that says it is done', async () => {
    expect(unsubscribeUrl, 'the booking step gave no unsubscribe link').not.toBe('');
    // Before: the clinic told, the confirmation sent, the reminder due a day before the appointment.
    expect(await outbox()).toEqual([
      { event_type: 'booking.created', state: 'delivered' },
      { event_type: 'patient.confirmation', state: 'delivered' },
      { event_type: 'patient.reminder', state: 'pending' },
    ]);

    const tab = await freshPage();
    const opened = await tab.goto(unsubscribeUrl);
    expect(opened?.status()).toBe(200);
    expect(await tab.locator('html').getAttribute('lang')).toBe('fr');
    expect(squeeze(await tab.locator('h1').textContent())).toBe('Ne plus recevoir d’e-mails pour ce rendez-vous\u00a0?');
    expect(squeeze(await tab.locator('main p').textContent())).toBe(
      'Vous ne recevrez plus de confirmation ni de rappel pour ce rendez-vous. Votre rendez-vous reste réservé.',
    );
    // Opening it changed nothing (mail scanners follow links).
    expect(await db.db.selectFrom('patient_mail').select('appointment_id').execute()).toHaveLength(1);

    const done = tab.waitForResponse((res) => res.url() === unsubscribeUrl && res.request().method() === 'POST');
    await tab.getByRole('button', { name: 'Arrêter les e-mails', exact: true }).click();
    expect((await done).status()).toBe(200);
    await tab.waitForLoadState();
    expect(await tab.locator('html').getAttribute('lang')).toBe('fr');
    expect(squeeze(await tab.locator('h1').textContent())).toBe('Vous ne recevrez plus d’e-mails pour ce rendez-vous');
    expect(squeeze(await tab.locator('main p').textContent())).toBe(
      'Votre rendez-vous reste réservé. Pour le modifier ou l’annuler, utilisez le lien de votre confirmation ou appelez le cabinet.',
    );
    expect(await tab.getByRole('button').count()).toBe(0);

    // The address is forgotten and the reminder withdrawn; what was delivered stays as it was.
    expect(await db.db.selectFrom('patient_mail').select('appointment_id').execute()).toEqual([]);
    expect(await outbox()).toEqual([
      { event_type: 'booking.created', state: 'delivered' },
      { event_type: 'patient.confirmation', state: 'delivered' },
    ]);
  });

  it('sends the patient nothing for a booking whose box was ticked, an address typed, and unticked again', async () => {
    expect(confirmation, 'the first booking sent no confirmation').toBeDefined();
    const tab = await freshPage();
    const steps = await toDetails(tab, SECOND_TIME);
    const { form } = widget(tab);
    await form.locator('#patient_name').fill(PATIENT.name);
    await form.locator('#patient_phone').fill(PATIENT.phone);
    await form.locator('#email_consent').check();
    await form.locator('#patient_email').fill(CHANGED_MIND_EMAIL);
    await form.locator('#email_consent').uncheck();
    await form.locator('#patient_email').waitFor({ state: 'detached' });
    await steps.next();
    const booked = tab.waitForRequest((req) => req.url().endsWith('/api/appointments/book'));
    await steps.book();
    const body = (await booked).postDataJSON() as Record<string, unknown>;
    const secondRef = await waitForReference(tab);
    expect(squeeze(await widget(tab).el.locator('[part="booking-result"]').textContent())).not.toContain('Nous envoyons la confirmation');
    // The widget sent none of the patient-mail fields.
    expect(Object.keys(body).filter((key) => ['patient_email', 'email_consent', 'language', 'page_url'].includes(key))).toEqual([]);

    // The worker has run once the clinic's own mail of this booking is in, and the outbox holds nothing still
    // to send: this booking's only message was the clinic's.
    await eventually(
      async () => {
        expect(mailbox.received.filter((mail) => mail.subject.endsWith(`, ${secondRef}`))).toHaveLength(1);
        expect(await outbox()).toEqual([
          { event_type: 'booking.created', state: 'delivered' },
          { event_type: 'booking.created', state: 'delivered' },
          { event_type: 'patient.confirmation', state: 'delivered' },
        ]);
      },
      { timeoutMs: 30_000 },
    );
    // Only the clinic was mailed: two bookings, and the first one's confirmation.
    const recipients = mailbox.received.map((mail) => mail.to.join(','));
    expect(recipients.sort()).toEqual([PATIENT_EMAIL, `reception@${MAIL_DOMAIN}`, `reception@${MAIL_DOMAIN}`].sort());
    expect(await db.db.selectFrom('patient_mail').select('appointment_id').execute()).toEqual([]);
    // And the BFF wrote neither address, nor the reference, into its logs.
    for (const secret of [PATIENT_EMAIL, CHANGED_MIND_EMAIL, bookingRef, secondRef, PATIENT.name, PATIENT.phone]) expect(bff.output()).not.toContain(secret);
  });
});
