import { aTimeout, expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import type { ClinicBookingStatus } from '../../widget/status/status-lookup.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import {
  aPatient,
  booked,
  bookedResult,
  fillForm,
  fixtureReady,
  formOf,
  markup,
  REFERENCE,
  refused,
  statusOf,
  submitForm,
} from './support/widget.js';

const STATUS = 'POST /appointments/status';
/** In the shape of a reference, but of no booking. */
const UNKNOWN = 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ';
const found = {
  status: 200,
  body: { success: true, message: 'ok', data: { status: 'Scheduled', name: 'Jane Patient', date: '2030-03-04', time: '10:15' } },
};

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(sections = 'status'): Promise<{ el: ClinicBooking; status: ClinicBookingStatus }> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections=${sections}></clinic-booking>`);
    return { el, status: statusOf(el) };
  }

  const input = (status: ClinicBookingStatus) => status.shadowRoot!.querySelector<HTMLInputElement>('#reference')!;
  const result = (status: ClinicBookingStatus) => status.shadowRoot!.querySelector('[part="status-result"]')!;
  const lookups = () => bff.calls.filter((call) => call.path.startsWith('/appointments/status'));

  /** Types the reference into the field and presses Enter, as a visitor would. */
  async function lookUp(status: ClinicBookingStatus, reference: string): Promise<void> {
    input(status).focus();
    await sendKeys({ type: reference });
    await sendKeys({ press: 'Enter' });
  }

  const rows = (status: ClinicBookingStatus) =>
    [...result(status).querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]);

  describe('when the reference is known', () => {
    it('shows the status, name, date and time of the booking', async () => {
      const { status } = await render();
      bff.on(STATUS, () => found);
      await lookUp(status, REFERENCE);
      await waitUntil(() => result(status).querySelector('dl'), 'no status shown');
      expect(result(status).querySelector('.badge[data-status="Scheduled"]')!.textContent).to.equal('Scheduled');
      expect(rows(status)).to.deep.equal([
        ['Status', 'Scheduled'],
        ['Name', 'Jane Patient'],
        ['Date', 'Monday, March 4, 2030'],
        ['Time', new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: 'UTC' }).format(new Date('2000-01-01T10:15:00Z'))],
      ]);
      // By POST, the reference in the body: never in a URL.
      expect(lookups().map((call) => [call.method, call.path, call.body])).to.deep.equal([['POST', '/appointments/status', { reference: REFERENCE }]]);
    });

    it('names the treatment and the dentist from the cached lists when the BFF knows them', async () => {
      const { status } = await render('treatments dentists status');
      bff.on(STATUS, () => ({ status: 200, body: { ...found.body, data: { ...found.body.data, treatment_id: 1, doctor_id: 2 } } }));
      await lookUp(status, REFERENCE);
      await waitUntil(() => result(status).querySelector('dl'), 'no status shown');
      expect(rows(status).slice(4)).to.deep.equal([
        ['Treatment', 'Check-up'],
        ['Dentist', 'Dr Raj Patel'],
      ]);
      await expect(status).shadowDom.to.be.accessible();
    });

    it('sends a short reference as typed in any case, with or without dashes, normalised', async () => {
      const { status } = await render();
      bff.on(STATUS, () => found);
      await lookUp(status, ' k7qf-2m9x-pa4t-z3rw-8hnc ');
      await waitUntil(() => result(status).querySelector('dl'), 'no status shown');
      expect(lookups().map((call) => call.body)).to.deep.equal([{ reference: 'K7QF2M9XPA4TZ3RW8HNC' }]);
    });

    it("adds the clinic's address and how to change or cancel by phone, when the site is loaded", async () => {
      const { status } = await render('site status');
      bff.on(STATUS, () => found);
      await lookUp(status, REFERENCE);
      await waitUntil(() => result(status).querySelector('dl'), 'no status shown');
      expect(rows(status)).to.deep.include(['Address', '1 High St, London']);
      expect(result(status).textContent).to.contain('To change or cancel, call the clinic: +44 20 7946 0000');
      expect(result(status).querySelector('a[href^="tel:"]')?.getAttribute('href')).to.equal('tel:+442079460000');
    });

    it('has no axe violations', async () => {
      const { el, status } = await render();
      bff.on(STATUS, () => found);
      await lookUp(status, REFERENCE);
      await waitUntil(() => result(status).querySelector('dl'), 'no status shown');
      await expect(el).to.be.accessible();
    });
  });

  describe('when the status is one the contract names', () => {
    it("shows it in the widget's language", async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="status" lang="de"></clinic-booking>`);
      const status = statusOf(el);
      bff.on(STATUS, () => ({ status: 200, body: { ...found.body, data: { ...found.body.data, status: 'Cancelled' } } }));
      await lookUp(status, REFERENCE);
      await waitUntil(() => result(status).querySelector('dl'), 'no status shown');
      expect(result(status).querySelector('[data-status]')!.textContent).to.equal('Abgesagt');
    });

    /** Looks up a booking in this status (with the site, so the clinic's phone is known) and returns its badge's look. */
    async function badgeFor(state: string) {
      bff?.restore();
      const { status } = await render('site status');
      bff.on(STATUS, () => ({ status: 200, body: { ...found.body, data: { ...found.body.data, status: state } } }));
      await lookUp(status, REFERENCE);
      await waitUntil(() => result(status).querySelector('dl'), 'no status shown');
      const badge = result(status).querySelector<HTMLElement>('.badge')!;
      const { color, backgroundColor } = getComputedStyle(badge);
      return { color, backgroundColor, text: result(status).textContent!, card: getComputedStyle(result(status).querySelector('.result')!) };
    }

    it('shows it as a badge in a card, coloured by status: Scheduled, Cancelled and Completed each look different', async () => {
      const scheduled = await badgeFor('Scheduled');
      const cancelled = await badgeFor('Cancelled');
      const completed = await badgeFor('Completed');
      expect(new Set([scheduled.backgroundColor, cancelled.backgroundColor, completed.backgroundColor]).size).to.equal(3);
      expect(new Set([scheduled.color, cancelled.color, completed.color]).size).to.equal(3);
      // A card like the confirmation's: bordered and padded.
      expect(scheduled.card.borderTopStyle).to.equal('solid');
      expect(parseFloat(scheduled.card.paddingTop)).to.be.greaterThan(0);
    });

    it('says how to change or cancel only while the booking is Scheduled', async () => {
      expect((await badgeFor('Scheduled')).text).to.contain('To change or cancel, call the clinic');
      expect((await badgeFor('Cancelled')).text).not.to.contain('To change or cancel');
      expect((await badgeFor('Completed')).text).not.to.contain('To change or cancel');
    });
  });

  describe('when the status is one the contract does not name (an upstream other than ours)', () => {
    it('shows it as it came rather than hiding it', async () => {
      const { status } = await render();
      bff.on(STATUS, () => ({ status: 200, body: { ...found.body, data: { ...found.body.data, status: 'Rescheduled' } } }));
      await lookUp(status, REFERENCE);
      await waitUntil(() => result(status).querySelector('dl'), 'no status shown');
      expect(result(status).querySelector('[data-status]')!.textContent).to.equal('Rescheduled');
    });
  });

  describe('when the reference is unknown', () => {
    it('says no booking has that reference, as an alert', async () => {
      const { status } = await render();
      bff.on(STATUS, () => refused(404, 'not_found', 'Booking not found'));
      await lookUp(status, UNKNOWN);
      await waitUntil(() => result(status).querySelector('[role="alert"]'), 'no message shown');
      expect(result(status).querySelector('[role="alert"]')!.textContent).to.equal('No booking has that reference. Check it and try again.');
      expect(markup(result(status).querySelector('dl'))).to.equal(null);
    });

    it('has no axe violations', async () => {
      const { el, status } = await render();
      bff.on(STATUS, () => refused(404, 'not_found', 'Booking not found'));
      await lookUp(status, UNKNOWN);
      await waitUntil(() => result(status).querySelector('[role="alert"]'), 'no message shown');
      await expect(el).to.be.accessible();
    });
  });

  describe('when the clinic system is busy', () => {
    it('says how many seconds to wait, from Retry-After', async () => {
      const { status } = await render();
      bff.on(STATUS, () => ({
        status: 503,
        headers: { 'retry-after': '20' },
        body: { success: false, message: 'busy', error_code: 'upstream_busy' },
      }));
      await lookUp(status, REFERENCE);
      await waitUntil(() => result(status).querySelector('[role="alert"]'), 'no failure shown');
      expect(result(status).querySelector('[role="alert"]')!.textContent).to.contain('20 seconds');
      await expect(status).shadowDom.to.be.accessible();
    });
  });

  describe('when the BFF cannot be reached', () => {
    it('says the clinic could not be reached', async () => {
      const { status } = await render();
      bff.on(STATUS, () => 'network-error');
      await lookUp(status, REFERENCE);
      await waitUntil(() => result(status).querySelector('[role="alert"]'), 'no message shown');
      expect(result(status).querySelector('[role="alert"]')!.textContent).to.match(/could not reach the clinic/);
    });
  });

  /** The field's own error, tied to it, or null. */
  const fieldError = (status: ClinicBookingStatus) => {
    const id = input(status).getAttribute('aria-describedby');
    return id ? status.shadowRoot!.getElementById(id)?.textContent ?? null : null;
  };

  describe('with an empty reference', () => {
    it('asks the BFF nothing and says so beside the field, not in a browser bubble', async () => {
      const { status } = await render();
      expect(status.shadowRoot!.querySelector('form')!.noValidate).to.equal(true);
      await lookUp(status, '   ');
      await aTimeout(20);
      expect(lookups()).to.have.length(0);
      expect(input(status).getAttribute('aria-invalid')).to.equal('true');
      expect(fieldError(status)).to.equal('Please fill this in.');
      expect(status.shadowRoot!.activeElement).to.equal(input(status));
      await expect(status).shadowDom.to.be.accessible();
    });
  });

  describe('with something that is not a reference', () => {
    it('asks the BFF nothing and says what a reference looks like', async () => {
      const { status } = await render();
      await lookUp(status, 'not-a-real-reference');
      await aTimeout(20);
      expect(lookups()).to.have.length(0);
      expect(input(status).getAttribute('aria-invalid')).to.equal('true');
      expect(fieldError(status)).to.equal('That is not a booking reference. It looks like K7QF-2M9X-PA4T-Z3RW-8HNC.');
    });

    it('clears the error once a reference is sent', async () => {
      const { status } = await render();
      bff.on(STATUS, () => found);
      await lookUp(status, 'K7QF');
      expect(input(status).getAttribute('aria-invalid')).to.equal('true');
      input(status).value = '';
      await lookUp(status, REFERENCE);
      await waitUntil(() => result(status).querySelector('dl'), 'no status shown');
      expect(input(status).getAttribute('aria-invalid')).to.equal('false');
      expect(fieldError(status)).to.equal(null);
    });
  });

  describe('after a failed lookup', () => {
    it('clears the stale failure on a new attempt, whatever its outcome', async () => {
      const { status } = await render();
      bff.on(STATUS, () => refused(404, 'not_found', 'Booking not found'));
      await lookUp(status, UNKNOWN);
      await waitUntil(() => result(status).querySelector('[role="alert"]'), 'no message shown');
      input(status).value = '';
      await lookUp(status, '');
      await aTimeout(20);
      expect(markup(result(status).querySelector('[role="alert"]'))).to.equal(null);
      expect(fieldError(status)).to.equal('Please fill this in.');
      expect(lookups()).to.have.length(1);
    });
  });

  describe('after a booking', () => {
    it('holds the new reference, ready to look up', async () => {
      const { el, status } = await render('booking status');
      bff.on('POST /appointments/book', () => booked());
      await fillForm(formOf(el), aPatient());
      await submitForm(formOf(el));
      await bookedResult(formOf(el));
      await el.updateComplete;
      await status.updateComplete;
      expect(input(status).value).to.equal(REFERENCE);
    });
  });
});
