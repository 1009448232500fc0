import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeAnswer, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { aPatient, failureBox, fillForm, fixtureReady, formOf, markup, settled, submitForm } from './support/widget.js';
import { skipWidgetWaits } from './support/widget-waits.js';

/** The BFF's answer when the clinic's system is busy (upstream 429), with its Retry-After. */
const busy = (seconds?: number): FakeAnswer => ({
  status: 503,
  body: { success: false, message: 'The clinic system is busy; please try again in 30 seconds', error_code: 'upstream_busy' },
  ...(seconds === undefined ? {} : { headers: { 'retry-after': String(seconds) } }),
});

const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim();

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  const loadError = (el: ClinicBooking) => el.shadowRoot!.querySelector<HTMLElement>('[part="load-error"]');
  const hero = (el: ClinicBooking) => el.shadowRoot!.querySelector('[part="hero"]');
  const contentCalls = () => bff.calls.filter((call) => call.path === '/content').length;

  describe('when the clinic system is busy on load', () => {
    /** GET /content answers busy `times` times, then the content. */
    async function renderBusy(times: number, seconds: number | undefined, lang = 'en', { errorShown = true } = {}) {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      let answered = 0;
      bff.on('GET /content', () => (answered++ < times ? busy(seconds) : { status: 200, body: clinicFixtures()['/content'] }));
      const el = await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase} lang=${lang}></clinic-booking>`);
      if (errorShown) await waitUntil(() => loadError(el), 'no error state');
      return el;
    }

    it('says the system is busy and when to try again, in seconds from Retry-After', async () => {
      const el = await renderBusy(1, 20);
      expect(text(loadError(el)!.querySelector('p'))).to.equal('The clinic’s system is busy. Please try again in 20 seconds.');
    });

    it('says it in German for lang="de"', async () => {
      const el = await renderBusy(1, 1, 'de');
      expect(text(loadError(el)!.querySelector('p'))).to.equal('Das System der Praxis ist gerade ausgelastet. Bitte in 1 Sekunde erneut versuchen.');
    });

    it('loads again by itself once Retry-After has passed, and shows the content', async () => {
      const waits = skipWidgetWaits();
      try {
        // Its wait skipped, the retry may come before the message is ever seen: the content is what counts.
        const el = await renderBusy(1, 1, 'en', { errorShown: false });
        await waitUntil(() => hero(el), 'the content never rendered after Retry-After', { timeout: 3_000 });

        expect(waits.asked).to.deep.equal([1_000]);
        expect(contentCalls()).to.equal(2);
        expect(markup(loadError(el))).to.equal(null);
      } finally {
        waits.restore();
      }
    });

    it('retries by itself only once: a second busy answer stays on the message', async () => {
      const waits = skipWidgetWaits();
      try {
        const el = await renderBusy(5, 1);
        await waitUntil(() => contentCalls() === 2 && loadError(el), 'no retry after Retry-After', { timeout: 3_000 });
        await el.updateComplete;

        // One wait asked for, the one before the retry: after the second busy answer, no timer would load again.
        expect(waits.asked).to.deep.equal([1_000]);
        expect(contentCalls()).to.equal(2);
        expect(text(loadError(el)!.querySelector('p'))).to.equal('The clinic’s system is busy. Please try again in 1 second.');
      } finally {
        waits.restore();
      }
    });

    it('has no axe violations', async () => {
      const el = await renderBusy(1, 20);
      await expect(el).to.be.accessible();
    });
  });

  describe('when the clinic system is busy for a booking', () => {
    it('says the system is busy and when to try again, and keeps the form', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on('POST /appointments/book', () => busy(40));
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
      const form = formOf(el);
      await fillForm(form, aPatient());
      await submitForm(form);
      const failure = await failureBox(form);
      await settled(form);
      expect(text(failure)).to.equal('The clinic’s system is busy. Please try again in 40 seconds.');
    });
  });
});
