import { expect, html } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import { HONEYPOT_FIELD, LIMITS } from '../../contract/rules/index.js';
import { installFakeBff, type FakeAnswer, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import {
  aPatient,
  booked,
  bookedResult,
  buttonNamed,
  control,
  deepActiveElement,
  draftKey,
  failureBox,
  fillForm,
  fixtureReady,
  formOf,
  markup,
  markupAll,
  postsTo,
  REFERENCE,
  refused,
  settled,
  stepOf,
  goToStep,
  submitForm,
  typeInto,
  walkToDetails,
} from './support/widget.js';

const BOOK = 'POST /appointments/book';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(): Promise<{ el: ClinicBooking; form: ClinicBookingForm }> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
    return { el, form: formOf(el) };
  }

  const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim();
  const errorOf = (form: ClinicBookingForm, id: string) => text(form.shadowRoot!.querySelector(`#${id}-error`));
  const bookings = () => postsTo(bff.calls, '/appointments/book');
  const keys = () => bookings().map((call) => call.headers['idempotency-key']);
  const fullDate = (iso: string) =>
    new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
  const clock = (hhmm: string) =>
    new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: 'UTC' }).format(new Date(`2000-01-01T${hhmm}:00Z`));

  describe('when shown', () => {
    it("caps each text field at the contract's limit, so the server never refuses a length the form allowed", async () => {
      const { form } = await render();
      await walkToDetails(form);
      const maxlength = (id: string) => Number(control(form, id).getAttribute('maxlength'));
      expect({
        patient_name: maxlength('patient_name'),
        patient_phone: maxlength('patient_phone'),
        address: maxlength('address'),
        note: maxlength('note'),
      }).to.deep.equal({
        patient_name: LIMITS.patientName,
        patient_phone: LIMITS.patientPhone,
        address: LIMITS.address,
        note: LIMITS.note,
      });
    });

    it("names its hidden honeypot field as the contract does", async () => {
      const { form } = await render();
      expect(control(form, 'honeypot').name).to.equal(HONEYPOT_FIELD);
    });
  });

  describe('when the details are submitted with problems', () => {
    // The day and the time can no longer be missing or wrong here: they are picked from
    // the calendar and the slots (calendar.test.ts, time-slots.test.ts).
    it('marks every missing required field, ties each message to it, and goes no further', async () => {
      const { form } = await render();
      await walkToDetails(form);
      await submitForm(form);
      for (const id of ['patient_name', 'patient_phone']) {
        const input = control(form, id);
        expect(input.getAttribute('aria-invalid'), id).to.equal('true');
        expect(input.getAttribute('aria-describedby')?.split(' '), id).to.include(`${id}-error`);
        expect(errorOf(form, id), id).to.equal('Please fill this in.');
      }
      expect(control(form, 'address').getAttribute('aria-invalid')).to.equal('false');
      expect(text(form.shadowRoot!.querySelector('#form-status'))).to.equal('Please correct 2 fields.');
      expect(stepOf(form)).to.equal('details');
      expect(bookings()).to.have.length(0);
    });

    it('moves focus to the first invalid field', async () => {
      const { form } = await render();
      await walkToDetails(form);
      await submitForm(form);
      expect(deepActiveElement()?.id).to.equal('patient_name');
    });

    it('moves focus past valid fields to the first invalid one', async () => {
      const { form } = await render();
      await walkToDetails(form);
      await typeInto(form, 'patient_name', 'Jane');
      await submitForm(form);
      expect(deepActiveElement()?.id).to.equal('patient_phone');
    });

    it('rejects a phone number that is not phone-shaped', async () => {
      const { form } = await render();
      await fillForm(form, { ...aPatient(), patient_phone: 'call me maybe' });
      expect(errorOf(form, 'patient_phone')).to.equal('Enter a phone number with at least 5 digits, e.g. +44 20 7946 0958.');
      expect(control(form, 'patient_phone').getAttribute('aria-invalid')).to.equal('true');
      expect(deepActiveElement()?.id).to.equal('patient_phone');
      expect(bookings()).to.have.length(0);
    });

    it('rejects a phone number with fewer than 5 digits', async () => {
      const { form } = await render();
      await fillForm(form, { ...aPatient(), patient_phone: '12-34' });
      expect(errorOf(form, 'patient_phone')).to.match(/at least 5 digits/);
    });

    it('clears a message once the field is corrected', async () => {
      const { form } = await render();
      await fillForm(form, { ...aPatient(), patient_phone: 'nope' });
      await typeInto(form, 'patient_phone', '+44 20 7946 0958');
      const phone = control(form, 'patient_phone');
      expect(phone.getAttribute('aria-invalid')).to.equal('false');
      expect(phone.hasAttribute('aria-describedby')).to.equal(false);
      expect(markup(form.shadowRoot!.querySelector('#patient_phone-error'))).to.equal(null);
    });

    it('asks for consent when a privacy notice is set', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const el = await fixtureReady(
        html`<clinic-booking api-base=${bff.apiBase} sections="booking" privacy-url="https://clinic.test/privacy"></clinic-booking>`,
      );
      const form = formOf(el);
      bff.on(BOOK, () => booked());
      await fillForm(form, aPatient());
      expect(errorOf(form, 'consent')).to.equal('Please agree so the clinic can contact you.');
      expect(form.shadowRoot!.querySelector<HTMLAnchorElement>('.consent a')!.href).to.equal('https://clinic.test/privacy');
      expect(bookings()).to.have.length(0);
      await expect(el).to.be.accessible();
    });

    it('ignores a privacy-url that is not http(s) or relative: no live javascript: link, a console warning', async () => {
      const original = console.warn;
      const warnings: string[] = [];
      console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
      try {
        bff = installFakeBff(clinicFixtures(), uniqueApiBase());
        const el = await fixtureReady(
          html`<clinic-booking api-base=${bff.apiBase} sections="booking" privacy-url="javascript:alert(1)"></clinic-booking>`,
        );
        const form = formOf(el);
        await walkToDetails(form);
        expect(form.shadowRoot!.querySelector('.consent')).to.equal(null);
        expect([...form.shadowRoot!.querySelectorAll('a')].map((a) => a.getAttribute('href'))).not.to.include('javascript:alert(1)');
        expect(warnings.join('\n')).to.contain('privacy-url must be an http(s) or relative URL');
      } finally {
        console.warn = original;
      }
    });

    it('resolves a relative privacy-url against the page', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" privacy-url="/privacy"></clinic-booking>`);
      const form = formOf(el);
      await walkToDetails(form);
      expect(form.shadowRoot!.querySelector<HTMLAnchorElement>('.consent a')!.getAttribute('href')).to.equal(new URL('/privacy', document.baseURI).href);
    });

    it('has no axe violations', async () => {
      const { el, form } = await render();
      await walkToDetails(form);
      await typeInto(form, 'patient_phone', 'x');
      await submitForm(form);
      expect(markupAll(form.shadowRoot!.querySelectorAll('[aria-invalid="true"]'))).to.have.length(2);
      await expect(el).to.be.accessible();
    });
  });

  describe('when the booking succeeds', () => {
    async function bookOnce() {
      const rendered = await render();
      bff.on(BOOK, () => booked());
      const patient = aPatient();
      await fillForm(rendered.form, {
        ...patient,
        doctor_id: '2',
        treatment_id: '1',
        address: '2 Low Rd',
        note: 'Nervous patient',
      });
      expect(stepOf(rendered.form)).to.equal('review');
      await submitForm(rendered.form);
      const result = await bookedResult(rendered.form);
      return { ...rendered, patient, result };
    }

    it('posts the typed fields and an empty honeypot', async () => {
      const { patient } = await bookOnce();
      expect(bookings()).to.have.length(1);
      expect(bookings()[0]!.body).to.deep.equal({
        patient_name: patient.patient_name,
        patient_phone: patient.patient_phone,
        address: '2 Low Rd',
        appointment_date: patient.appointment_date,
        appointment_time: '10:00',
        doctor_id: 2,
        treatment_id: 1,
        note: 'Nervous patient',
        website: '',
      });
    });

    it('sends an Idempotency-Key with the booking', async () => {
      await bookOnce();
      expect(keys()[0]).to.match(UUID);
      expect(bookings()[0]!.headers['content-type']).to.equal('application/json');
    });

    it('shows the summary and the reference, and moves focus to the result', async () => {
      const { form, patient, result } = await bookOnce();
      expect(text(result)).to.contain('Your appointment is booked');
      const rows = [...result.querySelectorAll('dt')].map((dt) => [text(dt), text(dt.nextElementSibling)]);
      expect(rows).to.deep.include(['Date', fullDate(patient.appointment_date)]);
      expect(rows).to.deep.include(['Time', `${clock('10:00')} (clinic time)`]);
      expect(text(result.querySelector('[data-reference]'))).to.equal(REFERENCE);
      expect(markup(form.shadowRoot!.querySelector('form'))).to.equal(null);
      await settled(form);
      expect(deepActiveElement()?.id).to.equal('result-heading');
    });

    it('clears the draft, kept in sessionStorage while typing, once booked', async () => {
      const { form } = await render();
      bff.on(BOOK, () => booked());
      await fillForm(form, aPatient({ patient_name: 'Draft Keeper' }));
      expect(sessionStorage.getItem(draftKey(bff.apiBase))).to.contain('Draft Keeper');
      await submitForm(form);
      await bookedResult(form);
      expect(sessionStorage.getItem(draftKey(bff.apiBase))).to.equal(null);
    });

    it('offers an empty form for another booking, from the first step', async () => {
      const { form } = await bookOnce();
      buttonNamed(form, 'Book another appointment').click();
      await form.updateComplete;
      await settled(form);
      expect(stepOf(form)).to.equal('treatment');
      expect(deepActiveElement()?.id).to.equal('step-heading');
      // Nothing chosen for the new booking, "Not sure yet" not either.
      expect(form.shadowRoot!.querySelector('[aria-pressed="true"]')).to.equal(null);
      await walkToDetails(form);
      expect(control(form, 'patient_name').value).to.equal('');
    });

    it('has no axe violations', async () => {
      const { el } = await bookOnce();
      await expect(el).to.be.accessible();
    });
  });

  describe('when the booking fails', () => {
    const typed = aPatient({ patient_name: 'Retry Patient' });
    const typedExtras = { address: '9 Side St', note: 'Afternoon please', doctor_id: '1', treatment_id: '2' };

    async function failFirstWith(answer: FakeAnswer | 'network-error') {
      const rendered = await render();
      let answers = 0;
      bff.on(BOOK, () => (answers++ === 0 ? answer : booked()));
      await fillForm(rendered.form, { ...typed, ...typedExtras });
      await submitForm(rendered.form);
      const failure = await failureBox(rendered.form);
      await settled(rendered.form);
      return { ...rendered, failure };
    }

    it('says the clinic could not be reached when the network fails, in an alert that takes focus', async () => {
      const { failure } = await failFirstWith('network-error');
      expect(failure.getAttribute('role')).to.equal('alert');
      expect(text(failure)).to.equal('We could not reach the clinic. Check your connection and try again; your details are kept.');
      expect(deepActiveElement() === failure, 'focus is on the failure message').to.equal(true);
    });

    it('says the clinic could not be reached on a 502', async () => {
      const { failure } = await failFirstWith(refused(502, 'server_error', 'upstream down'));
      expect(text(failure)).to.equal('We could not reach the clinic. Check your connection and try again; your details are kept.');
    });

    it('keeps every entry: the review shows the choices, and going back shows the typed values', async () => {
      const { form } = await failFirstWith('network-error');
      expect(stepOf(form)).to.equal('review');
      const review = text(form.shadowRoot!.querySelector('dl'));
      for (const shown of ['Whitening', 'Dr Ann Smith', fullDate(typed.appointment_date), clock(typed.appointment_time), typed.patient_name]) {
        expect(review).to.contain(shown);
      }
      await goToStep(form, 'details');
      for (const id of ['patient_name', 'patient_phone', 'address', 'note']) {
        expect(control<HTMLInputElement>(form, id).value, id).to.equal({ ...typed, ...typedExtras }[id]);
      }
    });

    it('retries with the same Idempotency-Key and books once', async () => {
      const { form } = await failFirstWith('network-error');
      await submitForm(form);
      const result = await bookedResult(form);
      expect(bookings()).to.have.length(2);
      expect(keys()[0]).to.match(UUID);
      expect(keys()[1]).to.equal(keys()[0]);
      expect(bookings()[1]!.body).to.deep.equal(bookings()[0]!.body);
      expect(text(result.querySelector('[data-reference]'))).to.equal(REFERENCE);
    });

    it('uses a new Idempotency-Key when the booking is changed after a failure', async () => {
      const { form } = await failFirstWith('network-error');
      await typeInto(form, 'appointment_time', '11:00');
      await submitForm(form);
      await bookedResult(form);
      expect(bookings()).to.have.length(2);
      expect(keys()[1]).to.match(UUID);
      expect(keys()[1]).not.to.equal(keys()[0]);
    });

    it('says the slot was taken on a 409 slot_unavailable', async () => {
      const { failure } = await failFirstWith(refused(409, 'slot_unavailable', 'Dr Ann Smith is already booked'));
      expect(text(failure)).to.match(/^That time has just been taken\. Please choose another time or dentist\./);
    });

    it("says how long to wait on a 429 rate_limited, from its Retry-After, and gives the clinic's phone as a link", async () => {
      const { failure } = await failFirstWith({ ...refused(429, 'rate_limited', 'Too many booking attempts'), headers: { 'retry-after': '290' } });
      expect(text(failure)).to.equal('Too many attempts. Please try again in 5 minutes. Or call the clinic: +44 20 7946 0000');
      expect(failure.querySelector('a')!.getAttribute('href')).to.equal('tel:+442079460000');
    });

    it('says to wait a few minutes on a 429 without Retry-After or the BFF error body (e.g. from a proxy in front of it)', async () => {
      const { failure } = await failFirstWith({ status: 429, body: 'Too Many Requests' });
      expect(text(failure)).to.equal('Too many attempts. Please wait a few minutes and try again. Or call the clinic: +44 20 7946 0000');
    });

    it('says "1 minute" for a Retry-After under a minute', async () => {
      const { failure } = await failFirstWith({ ...refused(429, 'rate_limited'), headers: { 'retry-after': '20' } });
      expect(text(failure)).to.match(/^Too many attempts\. Please try again in 1 minute\. /);
    });

    it("puts a 400 validation_error about the hours in the patient's words, never the technical message", async () => {
      const { failure } = await failFirstWith(
        refused(400, 'validation_error', 'Invalid request: the treatment takes 90 minutes and would end after closing time (18:00) on Tuesday', 'ends_after_closing'),
      );
      expect(text(failure)).to.equal('The treatment would not fit in the opening hours at that time. Please choose an earlier time or another day.');
    });

    it('says a time that has passed in the patient\'s words', async () => {
      const { failure } = await failFirstWith(refused(400, 'validation_error', 'Invalid request: appointment_date and appointment_time are in the past', 'in_past'));
      expect(text(failure)).to.equal('That time has already passed. Please choose a later one.');
    });

    it('says any other refusal in a generic sentence, without "Invalid request"', async () => {
      const { failure } = await failFirstWith(refused(400, 'validation_error', 'Invalid request: doctor_id does not name a dentist of this clinic'));
      expect(text(failure)).to.equal('The clinic could not accept this booking. Please check your choices, or call the clinic.');
    });

    it('has no axe violations', async () => {
      const { el } = await failFirstWith('network-error');
      await expect(el).to.be.accessible();
    });
  });

  describe('when the page is reloaded', () => {
    it('restores the typed values from sessionStorage', async () => {
      const apiBase = uniqueApiBase();
      bff = installFakeBff(clinicFixtures(), apiBase);
      const first = await fixtureReady(html`<clinic-booking api-base=${apiBase} sections="booking"></clinic-booking>`);
      const values = { ...aPatient(), doctor_id: '2', treatment_id: '1', address: '3 Mid St', note: 'See you' };
      await fillForm(formOf(first), values);
      first.remove();

      const second = await fixtureReady(html`<clinic-booking api-base=${apiBase} sections="booking"></clinic-booking>`);
      const form = formOf(second);
      expect(stepOf(form)).to.equal('review');
      expect(text(form.shadowRoot!.querySelector('dl'))).to.contain('Dr Raj Patel');
      await goToStep(form, 'details');
      for (const id of ['patient_name', 'patient_phone', 'address', 'note']) {
        expect(control<HTMLInputElement>(form, id).value, id).to.equal((values as Record<string, string>)[id]);
      }
      await goToStep(form, 'day');
      expect(form.shadowRoot!.querySelector('[aria-selected="true"] button')?.getAttribute('data-date')).to.equal(values.appointment_date);
    });

    it('retries a failed booking after the reload with the same Idempotency-Key', async () => {
      const apiBase = uniqueApiBase();
      bff = installFakeBff(clinicFixtures(), apiBase);
      let answers = 0;
      bff.on(BOOK, () => (answers++ === 0 ? 'network-error' : booked()));
      const first = await fixtureReady(html`<clinic-booking api-base=${apiBase} sections="booking"></clinic-booking>`);
      await fillForm(formOf(first), aPatient());
      await submitForm(formOf(first));
      await failureBox(formOf(first));
      first.remove();

      const second = await fixtureReady(html`<clinic-booking api-base=${apiBase} sections="booking"></clinic-booking>`);
      await submitForm(formOf(second));
      await bookedResult(formOf(second));
      expect(keys()).to.have.length(2);
      expect(keys()[1]).to.equal(keys()[0]);
    });

    it('resumes a draft kept before the steps had names, at the step its number meant', async () => {
      const apiBase = uniqueApiBase();
      bff = installFakeBff(clinicFixtures(), apiBase);
      // Saved by an earlier release in this tab: the steps were numbered 0 (treatment) to 5 (review).
      const draft = { ...aPatient({ patient_name: 'Kept Earlier' }), address: '', doctor_id: '', treatment_id: '', note: '', consent: false };
      sessionStorage.setItem(draftKey(apiBase), JSON.stringify({ draft, step: 4 }));
      const el = await fixtureReady(html`<clinic-booking api-base=${apiBase} sections="booking"></clinic-booking>`);
      const form = formOf(el);
      expect(stepOf(form)).to.equal('details');
      expect(control(form, 'patient_name').value).to.equal('Kept Earlier');
    });

    it('starts at the first step when the kept step is not one it knows', async () => {
      const apiBase = uniqueApiBase();
      bff = installFakeBff(clinicFixtures(), apiBase);
      sessionStorage.setItem(draftKey(apiBase), JSON.stringify({ draft: aPatient(), step: 'payment' }));
      const el = await fixtureReady(html`<clinic-booking api-base=${apiBase} sections="booking"></clinic-booking>`);
      expect(stepOf(formOf(el))).to.equal('treatment');
    });

    it('starts empty after a booking succeeded', async () => {
      const apiBase = uniqueApiBase();
      bff = installFakeBff(clinicFixtures(), apiBase);
      bff.on(BOOK, () => booked());
      const first = await fixtureReady(html`<clinic-booking api-base=${apiBase} sections="booking"></clinic-booking>`);
      await fillForm(formOf(first), aPatient());
      await submitForm(formOf(first));
      await bookedResult(formOf(first));
      first.remove();

      const second = await fixtureReady(html`<clinic-booking api-base=${apiBase} sections="booking"></clinic-booking>`);
      expect(stepOf(formOf(second))).to.equal('treatment');
      await walkToDetails(formOf(second));
      expect(control(formOf(second), 'patient_name').value).to.equal('');
    });
  });
});

