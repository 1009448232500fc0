import { expect, html, waitUntil } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import {
  aPatient,
  booked,
  bookedResult,
  clickIn,
  control,
  fixtureReady,
  formOf,
  pickDay,
  postsTo,
  statusOf,
  stepHeading,
  submitForm,
  typeInto,
  walkToDetails,
} from './support/widget.js';

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  let pageLang: string | null;
  beforeEach(() => (pageLang = document.documentElement.getAttribute('lang')));
  afterEach(() => {
    bff.restore();
    if (pageLang === null) document.documentElement.removeAttribute('lang');
    else document.documentElement.setAttribute('lang', pageLang);
  });

  async function render(template: (apiBase: string) => TemplateResult): Promise<ClinicBooking> {
    bff = installFakeBff(clinicFixtures({ site: { section_labels: {}, appointment_title: '' } }), uniqueApiBase());
    return fixtureReady(template(bff.apiBase));
  }

  const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim();
  // The first step's heading: the form's first words, in the widget's language.
  const submitLabel = (el: ClinicBooking) => stepHeading(formOf(el));
  const headings = (el: ClinicBooking) => [...el.shadowRoot!.querySelectorAll('section > h2')].map(text);

  describe('with lang="de"', () => {
    it('shows German strings', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="de"></clinic-booking>`);
      expect(submitLabel(el)).to.equal('Schritt 1 von 5 Behandlung');
      expect(headings(el)).to.include.members(['Behandlungen', 'Öffnungszeiten', 'Kontakt', 'Termin buchen', 'Buchung prüfen']);
      expect(text(formOf(el).shadowRoot!.querySelector('[data-value=""]'))).to.equal('Noch unklar');
    });

    it('formats fees, durations, days and opening hours the German way', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="de"></clinic-booking>`);
      const checkUp = text(el.shadowRoot!.querySelector('[part="treatment"]'));
      expect(checkUp).to.contain('60,00 £');
      expect(checkUp).to.contain('30 Min.');
      const days = [...el.shadowRoot!.querySelectorAll('[part="hours"] th')].map((th) => text(th)!.replace(/ Heute$/, ''));
      expect(days).to.deep.equal(['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag']);
      expect(text(el.shadowRoot!.querySelector('[part="hours"] tr:last-child td'))).to.equal('Geschlossen');
      expect(text(el.shadowRoot!.querySelector('[part="hours"] td'))).to.equal('08:00–18:00');
    });

    it('switches to English when its lang attribute changes after rendering', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="de"></clinic-booking>`);
      el.setAttribute('lang', 'en');
      await el.updateComplete;
      await formOf(el).updateComplete;
      expect(submitLabel(el)).to.equal('Step 1 of 5 Treatment');
    });

    it('hands its inner elements one context, kept across updates until its language changes', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="de"></clinic-booking>`);
      const first = formOf(el).context;
      expect(statusOf(el).context).to.equal(first);
      expect(first.lang).to.equal('de');
      el.requestUpdate();
      await el.updateComplete;
      expect(formOf(el).context).to.equal(first);
      el.setAttribute('lang', 'en');
      await el.updateComplete;
      expect(formOf(el).context).not.to.equal(first);
      expect(formOf(el).context.lang).to.equal('en');
      expect(statusOf(el).context).to.equal(formOf(el).context);
    });

    it('validates in German', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="de" sections="booking"></clinic-booking>`);
      const form = formOf(el);
      await walkToDetails(form);
      await submitForm(form);
      expect(text(form.shadowRoot!.querySelector('#patient_name-error'))).to.equal('Bitte ausfüllen.');
      expect(control(form, 'patient_name').getAttribute('aria-invalid')).to.equal('true');
    });

    it('has no axe violations', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="de"></clinic-booking>`);
      await expect(el).to.be.accessible();
    });
  });

  describe('with a regional variant (lang="de-AT")', () => {
    it('uses its language', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="de-AT"></clinic-booking>`);
      expect(submitLabel(el)).to.equal('Schritt 1 von 5 Behandlung');
    });
  });

  describe('without a lang of its own', () => {
    it("uses the page's <html lang>", async () => {
      document.documentElement.setAttribute('lang', 'de');
      const el = await render((api) => html`<clinic-booking api-base=${api}></clinic-booking>`);
      expect(submitLabel(el)).to.equal('Schritt 1 von 5 Behandlung');
    });

    it('uses the lang of the nearest ancestor', async () => {
      document.documentElement.setAttribute('lang', 'en');
      const el = await render((api) => html`<div lang="de"><clinic-booking api-base=${api}></clinic-booking></div>`);
      expect(submitLabel(el)).to.equal('Schritt 1 von 5 Behandlung');
    });

    it('uses English when nothing on the page names a language', async () => {
      document.documentElement.removeAttribute('lang');
      const el = await render((api) => html`<clinic-booking api-base=${api}></clinic-booking>`);
      expect(submitLabel(el)).to.equal('Step 1 of 5 Treatment');
    });
  });

  describe("with its own lang that differs from the page's", () => {
    it('prefers its own', async () => {
      document.documentElement.setAttribute('lang', 'de');
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="en"></clinic-booking>`);
      expect(submitLabel(el)).to.equal('Step 1 of 5 Treatment');
    });
  });

  describe('with a language it has no translation for', () => {
    it('falls back to English', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="xx"></clinic-booking>`);
      expect(submitLabel(el)).to.equal('Step 1 of 5 Treatment');
      expect(headings(el)).to.include.members(['Treatments', 'Opening hours']);
      expect(text(el.shadowRoot!.querySelector('[part="treatment"]'))).to.contain('£60.00');
    });

    it("falls back to English even when the page's language is known", async () => {
      document.documentElement.setAttribute('lang', 'de');
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="xx"></clinic-booking>`);
      expect(submitLabel(el)).to.equal('Step 1 of 5 Treatment');
    });
  });

  // Each language pack beside English and German: its strings, its direction, its digits, its times on one line.
  const PACKS = [
    { lang: 'fr', step1: 'Étape 1 sur 5 Soin', headings: ['Soins', 'Horaires d’ouverture', 'Prendre rendez-vous'], dir: 'ltr' },
    { lang: 'es', step1: 'Paso 1 de 5 Tratamiento', headings: ['Tratamientos', 'Horario', 'Pedir cita'], dir: 'ltr' },
    { lang: 'nl', step1: 'Stap 1 van 5 Behandeling', headings: ['Behandelingen', 'Openingstijden', 'Afspraak maken'], dir: 'ltr' },
    // Arabic's digits are whichever its locale's Intl uses (Latin ones in today's CLDR for plain 'ar').
    { lang: 'ar', step1: `الخطوة ${new Intl.NumberFormat('ar').format(1)} من ${new Intl.NumberFormat('ar').format(5)} العلاج`, headings: ['العلاجات', 'ساعات العمل', 'احجز موعدًا'], dir: 'rtl' },
  ];

  for (const pack of PACKS) {
    describe(`with lang="${pack.lang}"`, () => {
      it('shows its strings from its own pack, fetched before the first render', async () => {
        const el = await render((api) => html`<clinic-booking api-base=${api} lang=${pack.lang}></clinic-booking>`);
        expect(submitLabel(el)).to.equal(pack.step1);
        expect(headings(el)).to.include.members(pack.headings);
        expect(formOf(el).context.lang).to.equal(pack.lang);
      });

      it(`lays out ${pack.dir === 'rtl' ? 'right to left' : 'left to right'}`, async () => {
        const el = await render((api) => html`<clinic-booking api-base=${api} lang=${pack.lang}></clinic-booking>`);
        const root = el.shadowRoot!.querySelector('.root')!;
        expect(root.getAttribute('dir')).to.equal(pack.dir);
        expect(getComputedStyle(formOf(el).shadowRoot!.querySelector('form')!).direction).to.equal(pack.dir);
      });

      it('shows no time button taller than one line at 320 px', async () => {
        const el = await render((api) => html`<clinic-booking api-base=${api} lang=${pack.lang} sections="booking"></clinic-booking>`);
        el.style.cssText = 'display:block;width:320px';
        const form = formOf(el);
        await clickIn(form, '[data-value=""]');
        await clickIn(form, '[data-value=""]');
        await pickDay(form, aPatient().appointment_date);
        await waitUntil(() => form.shadowRoot!.querySelector('.slots [data-time]'), 'no times');
        const times = [...form.shadowRoot!.querySelectorAll<HTMLButtonElement>('.slots [data-time]')];
        expect(times.length).to.be.greaterThan(4);
        for (const button of times) {
          const style = getComputedStyle(button);
          const oneLine = parseFloat(style.lineHeight) + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) + parseFloat(style.borderTopWidth) * 2;
          // min-height (the 44 px target) may make a button taller than its line; two lines of text may not.
          const height = button.getBoundingClientRect().height;
          expect(height, `${button.textContent} in ${pack.lang}`).to.be.at.most(Math.max(oneLine, parseFloat(style.minHeight) || 0) + 1);
          expect(button.scrollWidth, `${button.textContent} fits its button in ${pack.lang}`).to.be.at.most(button.clientWidth);
        }
      });

      it('fits each weekday of the calendar in its column at 320 px, named in full for screen readers', async () => {
        const el = await render((api) => html`<clinic-booking api-base=${api} lang=${pack.lang} sections="booking"></clinic-booking>`);
        el.style.cssText = 'display:block;width:320px';
        const form = formOf(el);
        await clickIn(form, '[data-value=""]');
        await clickIn(form, '[data-value=""]');
        await waitUntil(() => form.shadowRoot!.querySelector('th'), 'no calendar');
        const headers = [...form.shadowRoot!.querySelectorAll<HTMLTableCellElement>('th')];
        expect(headers).to.have.length(7);
        for (const th of headers) {
          expect(th.scrollWidth, `${th.textContent} fits in ${pack.lang}`).to.be.at.most(th.clientWidth);
          expect(th.getAttribute('aria-label')!.length, `${th.textContent} has its full name`).to.be.greaterThan(th.textContent!.trim().length);
        }
      });

      it('has no axe violations', async () => {
        const el = await render((api) => html`<clinic-booking api-base=${api} lang=${pack.lang}></clinic-booking>`);
        await expect(el).to.be.accessible();
      });
    });
  }

  // The confirmation by e-mail in each language: the box, the address's error, the confirmation's line.
  const OPT_IN = [
    { lang: 'en', label: 'Email', box: 'Send me a confirmation and a reminder by email', error: 'Enter an email address, e.g. name@example.com.', sent: 'We will send the confirmation to' },
    { lang: 'de', label: 'E-Mail', box: 'Ich möchte eine Bestätigung und eine Terminerinnerung per E-Mail erhalten', error: 'Bitte eine E-Mail-Adresse angeben, z. B. name@beispiel.de.', sent: 'Wir senden die Bestätigung an' },
    { lang: 'fr', label: 'E-mail', box: 'Recevoir une confirmation et un rappel par e-mail', error: 'Indiquez une adresse e-mail, p. ex. nom@exemple.fr.', sent: 'Nous envoyons la confirmation à' },
    { lang: 'es', label: 'Correo electrónico', box: 'Quiero recibir una confirmación y un recordatorio por correo electrónico', error: 'Indique un correo electrónico, p. ej. nombre@ejemplo.es.', sent: 'Le enviaremos la confirmación a' },
    { lang: 'nl', label: 'E-mail', box: 'Stuur mij een bevestiging en een herinnering per e-mail', error: 'Vul een e-mailadres in, bijv. naam@voorbeeld.nl.', sent: 'We sturen de bevestiging naar' },
    { lang: 'ar', label: 'البريد الإلكتروني', box: 'أرغب في تلقي تأكيد وتذكير بالموعد عبر البريد الإلكتروني', error: 'أدخل عنوان بريد إلكتروني، مثل name@example.com.', sent: 'سنرسل التأكيد إلى' },
  ];

  for (const words of OPT_IN) {
    it(`offers the confirmation by e-mail in its own words with lang="${words.lang}"`, async () => {
      bff = installFakeBff(clinicFixtures({ emailOffered: true }), uniqueApiBase());
      bff.on('POST /appointments/book', () => booked());
      const form = formOf(await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} lang=${words.lang} sections="booking"></clinic-booking>`));
      const patient = aPatient();
      await walkToDetails(form, patient);
      await typeInto(form, 'patient_name', patient.patient_name);
      await typeInto(form, 'patient_phone', patient.patient_phone);
      expect(text(form.shadowRoot!.querySelector('label[for="email_consent"]'))).to.equal(words.box);
      await clickIn(form, '#email_consent');
      expect(text(form.shadowRoot!.querySelector('label[for="patient_email"]'))).to.match(new RegExp(`^${words.label} \\*`));
      await typeInto(form, 'patient_email', 'jane@example');
      await submitForm(form);
      expect(text(form.shadowRoot!.querySelector('#patient_email-error'))).to.equal(words.error);

      await typeInto(form, 'patient_email', 'jane@example.com');
      await submitForm(form);
      await submitForm(form);

      expect(text(await bookedResult(form))).to.contain(`${words.sent} jane@example.com.`);
      expect((postsTo(bff.calls, '/appointments/book')[0]!.body as { language?: string }).language).to.equal(words.lang);
    });
  }

  describe('when the language changes to one whose pack is not loaded yet', () => {
    it('keeps its language until the pack is here, then switches', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api} lang="en"></clinic-booking>`);
      el.setAttribute('lang', 'nl');
      await waitUntil(() => submitLabel(el) === 'Stap 1 van 5 Behandeling', 'never switched to Dutch');
      expect(formOf(el).context.lang).to.equal('nl');
    });
  });
});
