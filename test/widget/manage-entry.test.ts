import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { changes, inView, keepsRequests, leaveManageLink, loaded, manageOf, openByLink, press, REF, STATUS, statusAnswer, viewText } from './support/manage.js';
import {
  aPatient,
  bookedResult,
  buttonNamed,
  deepActiveElement,
  fillForm,
  fixtureReady,
  formOf,
  markup,
  nextDate,
  statusOf,
  submitForm,
} from './support/widget.js';

const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/** The ways into a booking's manage view: a manage link, the confirmation, the status card. */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => {
    bff.restore();
    leaveManageLink();
  });

  /** Books through the form; the BFF answers with REF (and `pageUrl` as its booking_page_url, when given). */
  async function book(pageUrl?: string, sections = 'booking status'): Promise<{ el: ClinicBooking; result: HTMLElement }> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on('POST /appointments/book', () => ({
      status: 200,
      body: { success: true, message: 'Appointment booked successfully', data: { reference: REF, doctor_id: 2, ...(pageUrl ? { booking_page_url: pageUrl } : {}) } },
    }));
    bff.on(STATUS, () => statusAnswer());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections=${sections}></clinic-booking>`);
    const form = formOf(el);
    await fillForm(form, { ...aPatient({ appointment_date: nextDate('Tuesday', 9) }), treatment_id: '1' });
    await submitForm(form);
    return { el, result: await bookedResult(form) };
  }

  describe('opened with a manage link (#clinic-booking-manage=…)', () => {
    it('shows the manage view in place of the booking form, and takes the fragment off the address, keeping the history entry', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on(STATUS, () => statusAnswer());
      const entries = history.length;
      const { el, view } = await openByLink(bff);
      expect(location.hash).to.equal('');
      expect(history.length).to.equal(entries);
      expect(view.closest('section')?.id).to.equal('booking');
      // The form is kept, hidden, for when the view closes.
      expect(formOf(el).closest('[hidden]') != null).to.equal(true);
      expect(text(inView(view, '#manage-heading'))).to.equal('Manage booking');
    });

    it('is left for a widget that shows the form when another on the page shows neither it nor the status lookup', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on(STATUS, () => statusAnswer());
      history.replaceState(history.state, '', `${location.pathname}${location.search}#clinic-booking-manage=${REF}`);
      const page = await fixture<HTMLElement>(html`<div>
        <clinic-booking api-base=${bff.apiBase} sections="site"></clinic-booking>
        <clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>
      </div>`);
      const [site, booking] = [...page.querySelectorAll('clinic-booking')] as [ClinicBooking, ClinicBooking];
      const view = await manageOf(booking);
      await loaded(view);
      expect(markup(site.shadowRoot!.querySelector('clinic-booking-manage'))).to.equal(null);
      expect(location.hash).to.equal('');
    });

    it('follows a manage link opened in a tab already on the page (only the fragment changes, no reload)', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on(STATUS, () => statusAnswer());
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking status"></clinic-booking>`);
      expect(el.shadowRoot!.querySelector('clinic-booking-manage')).to.equal(null);

      location.hash = `clinic-booking-manage=${REF}`;

      const view = await manageOf(el);
      await loaded(view);
      expect(text(inView(view, '#manage-heading'))).to.equal('Manage booking');
      await waitUntil(() => location.hash === '', 'the fragment stays on the address bar');
    });

    it('opens the booking dialog in mode="button", with focus on the view\'s heading', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on(STATUS, () => statusAnswer());
      const { el } = await openByLink(bff, REF, (apiBase) => html`<clinic-booking api-base=${apiBase} mode="button"></clinic-booking>`);
      const dialog = el.shadowRoot!.querySelector('dialog')!;
      expect(dialog.open).to.equal(true);
      expect(dialog.querySelector('clinic-booking-manage') != null).to.equal(true);
      await waitUntil(() => deepActiveElement()?.id === 'manage-heading', 'focus never reached the heading');
    });
  });

  describe('after a booking', () => {
    it('offers "Manage booking" on the confirmation, which opens the view and Close goes back, focus on the button again', async () => {
      const { el, result } = await book();
      const form = formOf(el);
      const button = buttonNamed(form, 'Manage booking');
      expect(button.getAttribute('type')).to.equal('button');
      button.focus();
      button.click();
      const view = await manageOf(el);
      await loaded(view);
      expect(viewText(view)).to.contain('Dr Raj Patel');
      await waitUntil(() => deepActiveElement()?.id === 'manage-heading', 'focus never reached the heading');
      await press(view, 'Close');
      await waitUntil(() => !el.shadowRoot!.querySelector('clinic-booking-manage'), 'the view stayed');
      expect(result.isConnected).to.equal(true);
      expect(text(form.shadowRoot!.querySelector('#result-heading'))).to.equal('Your appointment is booked');
      await waitUntil(() => deepActiveElement() === button, 'focus did not return to "Manage booking"');
    });

    it("puts the manage link of the clinic's booking page in the booking's calendar file, when the BFF names that page", async () => {
      const { result } = await book('https://clinic.example/book');
      const link = [...result.querySelectorAll('a')].find((a) => text(a) === 'Add to calendar')!;
      // Unfolded (RFC 5545 folds lines at 75 octets).
      const ics = (await (await fetch(link.href)).text()).replace(/\r\n /g, '');
      expect(ics).to.contain(`DESCRIPTION:Manage booking: https://clinic.example/book#clinic-booking-manage=${REF}\r\n`);
      expect(ics).to.contain(`UID:${REF}@clinic-booking\r\n`);
    });

    it('cancels from the view and then "Book a new appointment" starts a new booking', async () => {
      const { el } = await book();
      keepsRequests(bff);
      buttonNamed(formOf(el), 'Manage booking').click();
      const view = await manageOf(el);
      await loaded(view);
      await press(view, 'Request cancellation');
      await press(view, 'Yes, request cancellation');
      await waitUntil(() => viewText(view).includes('Cancellation requested on'), 'not requested');
      // The clinic has cancelled it since: opened again, the view says so.
      bff.on(STATUS, () => statusAnswer(changes({ cancel_requested_at: '2026-11-20T09:30:00Z', can_request_cancel: false, can_request_move: false }), 'Cancelled'));
      await press(view, 'Close');
      await waitUntil(() => !el.shadowRoot!.querySelector('clinic-booking-manage'), 'the view stayed');
      buttonNamed(formOf(el), 'Manage booking').click();
      const again = await manageOf(el);
      await loaded(again);
      await waitUntil(() => viewText(again).includes('This appointment is cancelled.'), 'never cancelled');
      await press(again, 'Book a new appointment');
      await waitUntil(() => !el.shadowRoot!.querySelector('clinic-booking-manage'), 'the view stayed');
      await waitUntil(() => formOf(el).shadowRoot!.querySelector('#step-heading'), 'no new booking');
      expect(text(formOf(el).shadowRoot!.querySelector('#step-heading'))).to.equal('Step 1 of 5 Treatment');
      await waitUntil(() => deepActiveElement()?.id === 'step-heading', 'focus never reached the first step');
    });
  });

  describe('in the status lookup', () => {
    async function lookUp(sections: string, answer = statusAnswer()): Promise<{ el: ClinicBooking; card: Element }> {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on(STATUS, () => answer);
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections=${sections}></clinic-booking>`);
      const status = statusOf(el);
      status.shadowRoot!.querySelector<HTMLInputElement>('#reference')!.focus();
      await sendKeys({ type: REF });
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => status.shadowRoot!.querySelector('.result dl'), 'no status shown');
      return { el, card: status.shadowRoot!.querySelector('.result')! };
    }

    const manageButton = (card: Element) => [...card.querySelectorAll('button')].find((b) => text(b) === 'Manage booking');

    it('offers "Manage booking" on the card of a Scheduled booking, which opens the view where the booking form was', async () => {
      const { el, card } = await lookUp('booking status');
      expect(manageButton(card)!.getAttribute('type')).to.equal('button');
      manageButton(card)!.click();
      const view = await manageOf(el);
      await loaded(view);
      expect(view.closest('section')?.id).to.equal('booking');
      expect(viewText(view)).to.contain('Ask for another time');
    });

    it('opens the view in place of the lookup when the widget shows no booking form; Close shows the card again', async () => {
      const { el, card } = await lookUp('status');
      manageButton(card)!.click();
      const view = await manageOf(el);
      await loaded(view);
      expect(view.closest('section')?.getAttribute('part')).to.equal('status');
      expect(statusOf(el).closest('[hidden]') != null).to.equal(true);
      await press(view, 'Close');
      await waitUntil(() => !el.shadowRoot!.querySelector('clinic-booking-manage'), 'the view stayed');
      expect(card.isConnected).to.equal(true);
      await waitUntil(() => deepActiveElement()?.textContent?.trim() === 'Manage booking', 'focus did not return to the button');
    });

    it('offers no "Manage booking" for a Cancelled booking', async () => {
      const { card } = await lookUp('status', statusAnswer(changes({ can_request_cancel: false, can_request_move: false, closed_reason: 'already_cancelled' }), 'Cancelled'));
      expect(manageButton(card)).to.equal(undefined);
    });

    it('offers no "Manage booking" when the BFF does not say what may be asked (no changes)', async () => {
      const { card } = await lookUp('status', statusAnswer(null));
      expect(manageButton(card)).to.equal(undefined);
    });
  });

  describe('privacy', () => {
    it('never puts the reference in a URL it fetches, nor in an event the page or its analytics see', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      keepsRequests(bff);
      const seen: unknown[] = [];
      const page = window as unknown as { dataLayer?: unknown[] };
      const before = page.dataLayer?.length ?? 0;
      const { el, view } = await openByLink(bff, REF, (apiBase) => html`<clinic-booking api-base=${apiBase} sections="booking status" analytics="datalayer"></clinic-booking>`);
      for (const name of ['clinic-booking:error', 'clinic-booking:ready']) el.addEventListener(name, (event) => seen.push((event as CustomEvent).detail));
      await press(view, 'Ask for another time');
      const day = nextDate('Tuesday', 9);
      for (let i = 0; i < 14 && !inView(view, `[data-date="${day}"]`); i++) {
        inView(view, '.month > button:last-of-type')!.click();
        await view.updateComplete;
      }
      inView(view, `[data-date="${day}"]`)!.click();
      await waitUntil(() => inView(view, '.times [data-time="09:00"]'), 'no times');
      inView(view, '.times [data-time="09:00"]')!.click();
      await press(view, 'Send request');
      await waitUntil(() => viewText(view).includes('Another time requested on'), 'not requested');
      // A refusal, for an error event too.
      bff.on('POST /appointments/change-requests', () => ({ status: 400, body: { success: false, message: 'late', error_code: 'validation_error', reason: 'inside_change_window' } }));
      await press(view, 'Request cancellation');
      await press(view, 'Yes, request cancellation');
      await waitUntil(() => inView(view, '#failure'), 'no failure');
      const symbols = REF.replace(/-/g, '');
      for (const call of bff.calls) {
        const url = `${call.path}?${new URLSearchParams(call.query)}`;
        expect(url).not.to.contain(symbols);
        expect(url).not.to.contain(REF);
      }
      expect(bff.calls.some((call) => JSON.stringify(call.body ?? '').includes(symbols))).to.equal(true);
      const published = JSON.stringify([...seen, ...(page.dataLayer ?? []).slice(before)]);
      expect(published).to.contain('clinic_booking_error');
      expect(published).not.to.contain(symbols);
      expect(published).not.to.contain(REF);
    });
  });
});
