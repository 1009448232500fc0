import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesRequired } from '../support/services.js';
import type { Engine, EngineBrowser, EngineDriver } from './support/engine-driver.js';
import { chromiumInstalled, startChromium } from './support/engine-chromium.js';
import { FIREFOX_PATH, firefoxInstalled, startFirefox } from './support/engine-firefox.js';
import { startWebKit, webKitInstalled } from './support/engine-webkit.js';
import { bookAsPatient, keyboard, pointer, type Booked, type Hands, type Patient } from './support/patient-flow.js';
import { startE2eStack, type E2eStack } from './support/stack.js';

/**
 * One patient's booking, the same steps (support/patient-flow.ts), in Chromium, Firefox and WebKit, once
 * with the pointer and once by keyboard alone, on a clinic's own page (another origin than the BFF's) that
 * links a privacy notice; each booking then looked up in the reference server's database.
 */
const ENGINES: { engine: Engine; installed: () => boolean; missing: string; start: () => Promise<EngineBrowser> }[] = [
  { engine: 'chromium', installed: chromiumInstalled, missing: 'no Chromium at CHROME_PATH or /usr/bin/chromium (Debian: chromium)', start: startChromium },
  { engine: 'firefox', installed: firefoxInstalled, missing: `no Firefox at ${FIREFOX_PATH} (Debian: firefox-esr; or set FIREFOX_PATH)`, start: startFirefox },
  {
    engine: 'webkit',
    installed: webKitInstalled,
    missing: 'WebKitWebDriver, MiniBrowser or Xvfb missing (Debian: webkit2gtk-driver, xvfb; scripts/ensure-webkit.mjs)',
    start: startWebKit,
  },
];

const HANDS = { pointer, keyboard };
const TREATMENT = 'Dental check-up';
const DENTIST = 'Dr Amara Okafor';
/** The patients, one per engine and hands, so that each booking is found by its name. */
const PATIENTS: Record<Engine, Record<'pointer' | 'keyboard', { name: string; phone: string }>> = {
  chromium: { pointer: { name: 'Clara Pointer', phone: '+44 7700 900101' }, keyboard: { name: 'Clara Keys', phone: '+44 7700 900102' } },
  firefox: { pointer: { name: 'Fiona Pointer', phone: '+44 7700 900201' }, keyboard: { name: 'Fiona Keys', phone: '+44 7700 900202' } },
  webkit: { pointer: { name: 'Wanda Pointer', phone: '+44 7700 900301' }, keyboard: { name: 'Wanda Keys', phone: '+44 7700 900302' } },
};

/** A clinic's booking page: its own words, a link, then the widget with the booking form only. */
const clinicPage = (bff: string) => `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Book an appointment</title>
  <script type="module" src="${bff}/widget/clinic-booking.js"></script></head>
  <body><h1>Book an appointment</h1><p>Choose a time that suits you. <a href="/privacy.html">How we use your details</a></p>
  <clinic-booking sections="booking" privacy-url="/privacy.html"><a href="tel:+442079460958">Call to book</a></clinic-booking></body></html>`;

/** Each engine, and whether its tests run: where it is installed, or anyway under REQUIRE_SERVICES=1, to fail. */
const engines = ENGINES.map((entry) => ({ ...entry, willRun: entry.installed() || servicesRequired() }));
for (const { engine, installed, missing, willRun } of engines) {
  if (!willRun) console.log(`${engine}: ${missing}; its booking tests are skipped (REQUIRE_SERVICES=1 makes this a failure)`);
  else if (!installed()) console.log(`${engine}: ${missing}; REQUIRE_SERVICES=1, so its booking tests run and fail`);
}

describe.runIf(engines.some((entry) => entry.willRun))('a patient books on a clinic page', () => {
  let stack: E2eStack;
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());

  beforeAll(async () => {
    stack = await startE2eStack();
    stack.site.pages.set('/book.html', clinicPage(stack.bff.baseUrl));
    stack.site.pages.set('/privacy.html', '<!doctype html><title>Privacy</title><p>What we keep and why.</p>');
  });

  afterAll(async () => {
    await stack?.close();
  });

  /** Opens the clinic's page in a page of its own and books there; the page closes however the booking ends. */
  async function bookIn(browser: EngineBrowser, hands: (driver: EngineDriver) => Hands, patient: Patient): Promise<Booked> {
    const page = await browser.newPage();
    try {
      await page.open(`${stack.site.origin}/book.html`);
      return await bookAsPatient(page, hands(page), patient);
    } finally {
      await page.close();
    }
  }

  const ids = async () => ({
    doctor_id: (await stack.server.db.selectFrom('dentists').select('doctor_id').where('doctor_name', '=', DENTIST).executeTakeFirstOrThrow()).doctor_id,
    treatment_id: (await stack.server.db.selectFrom('treatments').select('treatment_id').where('treatment_name', '=', TREATMENT).executeTakeFirstOrThrow()).treatment_id,
  });

  for (const { engine, installed, missing, start, willRun } of engines) {
    describe.runIf(willRun)(`in ${engine}`, () => {
      let browser: EngineBrowser;

      beforeAll(async () => {
        if (!installed()) throw new Error(`${engine} is required here (REQUIRE_SERVICES=1): ${missing}`);
        browser = await start();
      });

      afterAll(async () => {
        await browser?.close();
      });

      for (const how of ['pointer', 'keyboard'] as const) {
        it(`books with the ${how === 'pointer' ? 'pointer' : 'keyboard alone'}, and the booking is on the server`, async () => {
          const patient = PATIENTS[engine][how];

          const booked = await bookIn(browser, HANDS[how], { treatment: TREATMENT, dentist: DENTIST, today, ...patient });

          expect(booked.reference).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$|^[A-Za-z0-9_-]{54}$/);
          expect(booked.date > today).toBe(true);
          const rows = await stack.server.db.selectFrom('appointments').selectAll().where('patient_name', '=', patient.name).execute();
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({
            care_id: stack.clinic.careId,
            patient_name: patient.name,
            patient_phone: patient.phone,
            appointment_date: booked.date,
            appointment_time: booked.time,
            ...(await ids()),
            status: 'Scheduled',
          });
        });
      }
    });
  }
});
