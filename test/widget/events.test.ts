import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { BookedDetail, ClinicBooking, ErrorDetail } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import {
  aPatient,
  booked,
  bookedResult,
  deepActiveElement,
  failureBox,
  fillForm,
  fixtureReady,
  formOf,
  refused,
  REFERENCE,
  settled,
  statusOf,
  submitForm,
} from './support/widget.js';

const BOOK = 'POST /appointments/book';

/** Captures console.warn lines until restore(). */
function captureWarnings() {
  const original = console.warn;
  const lines: string[] = [];
  console.warn = (...args: unknown[]) => lines.push(args.join(' '));
  return { lines, restore: () => (console.warn = original) };
}

/** Records every event of that name that reaches the document. */
function listen<T>(name: 'clinic-booking:ready' | 'clinic-booking:booked' | 'clinic-booking:error', handler?: (event: CustomEvent<T>) => void) {
  const events: CustomEvent<T>[] = [];
  const record = (event: Event) => {
    events.push(event as CustomEvent<T>);
    handler?.(event as CustomEvent<T>);
  };
  document.addEventListener(name, record);
  return { events, stop: () => document.removeEventListener(name, record) };
}

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  let stops: (() => void)[] = [];
  afterEach(() => {
    bff.restore();
    for (const stop of stops) stop();
    stops = [];
  });
  function on<T>(name: Parameters<typeof listen>[0], handler?: (event: CustomEvent<T>) => void) {
    const listener = listen<T>(name, handler);
    stops.push(listener.stop);
    return listener.events;
  }

  describe('when the content has rendered', () => {
    it('fires clinic-booking:ready once, on the document, with the sections shown', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const ready = on<{ sections: string[] }>('clinic-booking:ready');
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="status treatments"></clinic-booking>`);
      el.requestUpdate();
      await el.updateComplete;
      expect(ready).to.have.length(1);
      expect(ready[0]!.target === el, 'the widget is the target').to.equal(true);
      expect(ready[0]!.bubbles).to.equal(true);
      expect(ready[0]!.composed).to.equal(true);
      expect(ready[0]!.detail.sections).to.deep.equal(['status', 'treatments']);
    });

    it('lists every section in clinic-booking:ready by default', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const ready = on<{ sections: string[] }>('clinic-booking:ready');
      await fixtureReady(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
      expect(ready[0]!.detail.sections).to.deep.equal(['site', 'treatments', 'dentists', 'booking', 'status']);
    });
  });

  describe('when a booking succeeds', () => {
    async function book(attributes: { successUrl?: string } = {}, choose: Record<string, string> = {}, answer: { status: number; body: unknown } = booked()) {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on(BOOK, () => answer);
      const el = await fixtureReady(
        html`<clinic-booking api-base=${bff.apiBase} sections="booking" success-url=${attributes.successUrl ?? ''}></clinic-booking>`,
      );
      const patient = aPatient({ patient_name: 'Private Person', patient_phone: '+44 7700 900123' });
      await fillForm(formOf(el), { ...patient, ...choose });
      await submitForm(formOf(el));
      return { el, patient };
    }

    it('fires clinic-booking:booked on the document, bubbling, composed and cancelable', async () => {
      const events = on<BookedDetail>('clinic-booking:booked');
      const { el } = await book();
      await bookedResult(formOf(el));
      expect(events).to.have.length(1);
      expect(events[0]!.target === el, 'the widget is the target').to.equal(true);
      expect(events[0]!.bubbles).to.equal(true);
      expect(events[0]!.composed).to.equal(true);
      expect(events[0]!.cancelable).to.equal(true);
    });

    it('details the booking: reference, date, time, treatment_id, doctor_id, and never an appointment_id', async () => {
      const events = on<BookedDetail>('clinic-booking:booked');
      const { el, patient } = await book({}, { treatment_id: '2', doctor_id: '1' });
      await bookedResult(formOf(el));
      expect(events[0]!.detail).to.deep.equal({
        reference: REFERENCE,
        date: patient.appointment_date,
        time: patient.appointment_time,
        treatment_id: 2,
        doctor_id: 1,
      });
    });

    it('passes on no appointment_id even from an older BFF that still answers one', async () => {
      const events = on<BookedDetail>('clinic-booking:booked');
      const olderBff = { status: 200, body: { success: true, message: 'Appointment booked successfully', data: { appointment_id: 42, reference: REFERENCE, doctor_id: null } } };
      const { el } = await book({}, {}, olderBff);
      await bookedResult(formOf(el));
      expect(Object.keys(events[0]!.detail).sort()).to.deep.equal(['date', 'doctor_id', 'reference', 'time', 'treatment_id']);
      expect(JSON.stringify(events[0]!.detail)).not.to.contain('42');
    });

    it('gives null treatment_id and doctor_id when none was chosen', async () => {
      const events = on<BookedDetail>('clinic-booking:booked');
      const { el } = await book();
      await bookedResult(formOf(el));
      expect(events[0]!.detail.treatment_id).to.equal(null);
      expect(events[0]!.detail.doctor_id).to.equal(null);
    });

    it("never puts the patient's name or phone in the detail", async () => {
      const events = on<BookedDetail>('clinic-booking:booked');
      const { el, patient } = await book();
      await bookedResult(formOf(el));
      const detail = JSON.stringify(events[0]!.detail);
      expect(detail).not.to.contain(patient.patient_name);
      expect(detail).not.to.contain('Private');
      expect(detail).not.to.contain(patient.patient_phone);
      expect(detail).not.to.contain('900123');
    });

    // A fragment-only success-url makes location.assign() a same-document
    // navigation: the test page stays, yet whether the redirect ran is visible.
    describe('with a success-url', () => {
      let hashBefore: string;
      beforeEach(() => (hashBefore = location.hash));
      afterEach(() => history.replaceState(null, '', `${location.pathname}${location.search}${hashBefore}`));

      it('stays on the page and shows the result when clinic-booking:booked is cancelled', async () => {
        const target = `#cb-thanks-${Date.now()}`;
        const events = on<BookedDetail>('clinic-booking:booked', (event) => event.preventDefault());
        const { el } = await book({ successUrl: target });
        const result = await bookedResult(formOf(el));
        await settled(formOf(el));
        await aTimeout(50);
        expect(events[0]!.defaultPrevented).to.equal(true);
        expect(location.hash).to.equal(hashBefore);
        expect(result.textContent).to.contain(REFERENCE);
        expect(deepActiveElement()?.id).to.equal('result-heading');
      });

      it('goes to the success-url when clinic-booking:booked is not cancelled', async () => {
        const target = `#cb-thanks-${Date.now()}`;
        await book({ successUrl: target });
        await waitUntil(() => location.hash === target, 'the success-url was not followed');
      });

      it('ignores a success-url that is not http(s) or relative, with a console warning', async () => {
        const warnings = captureWarnings();
        const page = window as unknown as { cbSuccessUrlRan?: boolean };
        try {
          const { el } = await book({ successUrl: 'javascript:window.cbSuccessUrlRan=true' });
          const result = await bookedResult(formOf(el));
          await settled(formOf(el));
          await aTimeout(50);
          expect(page.cbSuccessUrlRan, 'the javascript: URL ran in the page').to.equal(undefined);
          expect(location.hash).to.equal(hashBefore);
          expect(result.textContent).to.contain(REFERENCE);
          expect(warnings.lines.join('\n')).to.contain('success-url must be an http(s) or relative URL');
        } finally {
          warnings.restore();
        }
      });
    });
  });

  describe('when loading fails', () => {
    it('fires clinic-booking:error with kind "load", the status and the error code', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on('GET /content', () => refused(503, 'upstream_unavailable', 'The clinic system is unavailable'));
      const errors = on<ErrorDetail>('clinic-booking:error');
      const el = await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
      await waitUntil(() => errors.length > 0, 'no clinic-booking:error');
      expect(errors[0]!.target === el, 'the widget is the target').to.equal(true);
      expect(errors[0]!.bubbles && errors[0]!.composed).to.equal(true);
      expect(errors[0]!.detail).to.deep.equal({ kind: 'load', status: 503, code: 'upstream_unavailable' });
    });

    it('reports status 0 and code "network" when the BFF cannot be reached', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on('GET /content', () => 'network-error');
      const errors = on<ErrorDetail>('clinic-booking:error');
      await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase} sections="treatments"></clinic-booking>`);
      await waitUntil(() => errors.length > 0, 'no clinic-booking:error');
      expect(errors[0]!.detail).to.deep.equal({ kind: 'load', status: 0, code: 'network' });
    });

    it('fires clinic-booking:error once per failure, however often the element re-renders', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on('GET /content', () => 'network-error');
      const errors = on<ErrorDetail>('clinic-booking:error');
      const el = await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
      await waitUntil(() => errors.length > 0, 'no clinic-booking:error');
      el.patientName = 'Someone';
      await el.updateComplete;
      el.mode = 'button';
      await el.updateComplete;
      await aTimeout(20);
      expect(errors).to.have.length(1);
    });
  });

  describe('when a booking fails', () => {
    it('fires clinic-booking:error with kind "booking"', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on(BOOK, () => refused(409, 'slot_unavailable', 'taken'));
      const errors = on<ErrorDetail>('clinic-booking:error');
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
      await fillForm(formOf(el), aPatient());
      await submitForm(formOf(el));
      await failureBox(formOf(el));
      expect(errors).to.have.length(1);
      expect(errors[0]!.target === el, 'the widget is the target').to.equal(true);
      expect(errors[0]!.detail).to.deep.equal({ kind: 'booking', status: 409, code: 'slot_unavailable' });
    });

    it('fires clinic-booking:error with kind "booking", status 0 on a network failure', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on(BOOK, () => 'network-error');
      const errors = on<ErrorDetail>('clinic-booking:error');
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
      await fillForm(formOf(el), aPatient());
      await submitForm(formOf(el));
      await failureBox(formOf(el));
      expect(errors[0]!.detail).to.deep.equal({ kind: 'booking', status: 0, code: 'network' });
    });
  });

  describe('when a status lookup fails', () => {
    it('fires clinic-booking:error with kind "status"', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on('GET /appointments/status/*', () => refused(404, 'not_found', 'Booking not found'));
      const errors = on<ErrorDetail>('clinic-booking:error');
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="status"></clinic-booking>`);
      const status = statusOf(el);
      status.shadowRoot!.querySelector('input')!.value = 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ';
      status.shadowRoot!.querySelector('form')!.requestSubmit();
      await waitUntil(() => errors.length > 0, 'no clinic-booking:error');
      expect(errors[0]!.detail).to.deep.equal({ kind: 'status', status: 404, code: 'not_found' });
    });
  });
});
