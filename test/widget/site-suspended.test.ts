import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { aPatient, clickIn, fillForm, fixtureReady, formOf, markup, refused, submitForm } from './support/widget.js';

/** The BFF's answer for a suspended site, to any call. */
const SUSPENDED = () => refused(403, 'site_suspended', 'This site is suspended');

/** A 403 site_suspended: the widget gives way to a notice that sends the visitor to the phone. */
describe('<clinic-booking> of a suspended site', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  const notice = (el: ClinicBooking) => el.shadowRoot!.querySelector<HTMLElement>('[part="load-error"]');
  const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim();
  const waitForNotice = (el: ClinicBooking) => waitUntil(() => notice(el), 'the suspended notice never showed');

  describe('when the content came before the suspension', () => {
    it('names the clinic’s phone as a tel: link when a booking is refused', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on('POST /appointments/book', SUSPENDED);
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"
        ><a id="fallback" href="tel:+449999">Call to book</a></clinic-booking>`);
      const form = formOf(el);
      await fillForm(form, aPatient());
      await submitForm(form);
      await waitForNotice(el);
      const shown = notice(el)!;
      expect(shown.getAttribute('role')).to.equal('alert');
      expect(text(shown)).to.equal('Online booking is unavailable, please call: +44 20 7946 0000');
      expect(shown.querySelector('a')!.getAttribute('href')).to.equal('tel:+442079460000');
      // The phone, not the fallback, and no "Try again": the site will not come back by retrying.
      expect(markup(shown.querySelector('slot'))).to.equal(null);
      expect(markup(shown.querySelector('button'))).to.equal(null);
      expect(markup(el.shadowRoot!.querySelector('clinic-booking-form'))).to.equal(null);
      await expect(el).to.be.accessible();
    });

    it('does so in the page’s language when a day’s times are refused', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on('GET /availability', SUSPENDED);
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" lang="de"></clinic-booking>`);
      const form = formOf(el);
      await clickIn(form, '[data-value=""]');
      await clickIn(form, '[data-value=""]');
      await waitForNotice(el);
      expect(text(notice(el))).to.equal('Online-Buchung ist nicht verfügbar, bitte rufen Sie an: +44 20 7946 0000');
    });

    it('reaches every widget of that BFF on the page, not only the one that asked', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on('POST /appointments/status', SUSPENDED);
      const page = await fixture<HTMLElement>(html`<div>
        <clinic-booking api-base=${bff.apiBase} sections="treatments"></clinic-booking>
        <clinic-booking api-base=${bff.apiBase} sections="status"></clinic-booking>
      </div>`);
      const [treatments, status] = [...page.querySelectorAll('clinic-booking')] as [ClinicBooking, ClinicBooking];
      await waitUntil(() => treatments.shadowRoot!.querySelector('[part="treatments"]'), 'the treatments never rendered');
      await waitUntil(() => status.shadowRoot!.querySelector('clinic-booking-status')?.shadowRoot?.querySelector('input'), 'no status form');
      const lookup = status.shadowRoot!.querySelector('clinic-booking-status')!.shadowRoot!;
      lookup.querySelector('input')!.value = 'K7QF-2M9X-PA4T-Z3RW-8HNC';
      lookup.querySelector('input')!.dispatchEvent(new Event('input'));
      lookup.querySelector('form')!.requestSubmit();
      await waitForNotice(treatments);
      await waitForNotice(status);
      expect(notice(treatments)!.querySelector('a')!.getAttribute('href')).to.equal('tel:+442079460000');
    });
  });

  describe('when the content itself is refused', () => {
    async function renderSuspended() {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on('GET /content', SUSPENDED);
      const el = await fixture<ClinicBooking>(
        html`<clinic-booking api-base=${bff.apiBase}><a id="fallback" href="tel:+442079460000">Call to book</a></clinic-booking>`,
      );
      await waitForNotice(el);
      return el;
    }

    it('shows the page’s fallback through its slot, with no "Try again"', async () => {
      const el = await renderSuspended();
      const shown = notice(el)!;
      expect(text(shown.querySelector('p'))).to.equal('Online booking is unavailable, please call:');
      const fallback = el.querySelector('#fallback')!;
      expect(fallback.assignedSlot === shown.querySelector('slot'), 'the fallback is in the notice').to.equal(true);
      expect(fallback.getClientRects().length).to.be.greaterThan(0);
      expect(markup(shown.querySelector('button'))).to.equal(null);
    });

    it('has no axe violations', async () => {
      const el = await renderSuspended();
      await expect(el).to.be.accessible();
    });
  });
});
