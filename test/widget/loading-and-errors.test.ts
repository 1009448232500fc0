import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { deferred, markup, refused } from './support/widget.js';

const CONTENT = ['/content'];

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  const skeleton = (el: ClinicBooking) => el.shadowRoot!.querySelector('.skeleton');
  const loadError = (el: ClinicBooking) => el.shadowRoot!.querySelector<HTMLElement>('[part="load-error"]');
  const hero = (el: ClinicBooking) => el.shadowRoot!.querySelector('[part="hero"]');
  const isShown = (node: Element) => node.getClientRects().length > 0;

  describe('while the content loads', () => {
    async function renderHeld() {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const held = deferred<{ status: number; body: unknown }>();
      bff.on('GET /content', () => held.promise);
      const el = await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
      return { el, release: () => held.resolve({ status: 200, body: clinicFixtures()['/content'] }) };
    }

    it('shows a busy loading skeleton with an accessible name', async () => {
      const { el } = await renderHeld();
      const bones = skeleton(el)!;
      expect(bones.getAttribute('role')).to.equal('status');
      expect(bones.getAttribute('aria-busy')).to.equal('true');
      expect(bones.textContent!.trim()).to.equal('Loading…');
      expect(markup(hero(el))).to.equal(null);
    });

    it('replaces the skeleton with the content once it arrives', async () => {
      const { el, release } = await renderHeld();
      release();
      await waitUntil(() => hero(el), 'the content never rendered');
      expect(markup(skeleton(el))).to.equal(null);
    });

    it('has no axe violations', async () => {
      const { el } = await renderHeld();
      expect(skeleton(el)).not.to.equal(null);
      await expect(el).to.be.accessible();
    });
  });

  describe('when the BFF is down', () => {
    async function renderDown() {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const state = { down: true };
      for (const path of CONTENT) {
        bff.on(`GET ${path}`, () => (state.down ? 'network-error' : { status: 200, body: clinicFixtures()[path] }));
      }
      const el = await fixture<ClinicBooking>(
        html`<clinic-booking api-base=${bff.apiBase}><a id="fallback" href="tel:+442079460000">Call to book</a></clinic-booking>`,
      );
      await waitUntil(() => loadError(el), 'no error state');
      return { el, state, fallback: el.querySelector('#fallback')! };
    }

    it('shows an alert with the reason and a retry button', async () => {
      const { el } = await renderDown();
      const error = loadError(el)!;
      expect(error.getAttribute('role')).to.equal('alert');
      expect(error.querySelector('p')!.textContent).to.equal('We could not load the clinic’s information.');
      expect(error.querySelector('button')!.textContent!.trim()).to.equal('Try again');
      expect(markup(skeleton(el))).to.equal(null);
    });

    it('shows the light-DOM fallback through its slot', async () => {
      const { el, fallback } = await renderDown();
      expect(fallback.assignedSlot === loadError(el)!.querySelector('slot'), 'the fallback is in the error slot').to.equal(true);
      expect(isShown(fallback)).to.equal(true);
    });

    it('renders the content when "Try again" is pressed after the BFF is back', async () => {
      const { el, state, fallback } = await renderDown();
      const before = bff.calls.length;
      state.down = false;
      loadError(el)!.querySelector('button')!.click();
      await waitUntil(() => hero(el), 'the content never rendered after the retry');
      expect(markup(loadError(el))).to.equal(null);
      expect(bff.calls.length).to.be.greaterThan(before);
      expect(isShown(fallback)).to.equal(false);
    });

    it('stays in the error state when "Try again" fails again', async () => {
      const { el } = await renderDown();
      const failed = new Promise((resolve) => el.addEventListener('clinic-booking:error', resolve, { once: true }));
      loadError(el)!.querySelector('button')!.click();
      await failed;
      await el.updateComplete;
      expect(loadError(el)).not.to.equal(null);
      expect(markup(hero(el))).to.equal(null);
    });

    it('draws "Try again" as a button (the default theme colours, a border and a touch size), not as bold text', async () => {
      const { el } = await renderDown();
      const style = getComputedStyle(loadError(el)!.querySelector('button')!);
      expect(style.backgroundColor).not.to.equal('rgba(0, 0, 0, 0)');
      expect(style.borderTopStyle).to.equal('solid');
      expect(style.borderTopColor).to.equal(style.backgroundColor);
      expect(style.color).not.to.equal(style.backgroundColor);
      expect(parseFloat(style.minHeight)).to.be.at.least(44);
    });

    it('follows --clinic-booking-primary for "Try again" when the page sets it', async () => {
      const { el } = await renderDown();
      el.style.setProperty('--clinic-booking-primary', 'rgb(1, 2, 3)');
      expect(getComputedStyle(loadError(el)!.querySelector('button')!).backgroundColor).to.equal('rgb(1, 2, 3)');
    });

    it('has no axe violations', async () => {
      const { el } = await renderDown();
      await expect(el).to.be.accessible();
    });
  });

  describe('when the content request fails', () => {
    it('shows the error state, and "Try again" asks again, once', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      let failing = true;
      bff.on('GET /content', () => (failing ? refused(503, 'upstream_unavailable', 'down') : { status: 200, body: clinicFixtures()['/content'] }));
      const el = await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`);
      await waitUntil(() => loadError(el), 'no error state');
      const before = bff.calls.length;
      failing = false;
      loadError(el)!.querySelector('button')!.click();
      await waitUntil(() => hero(el), 'the content never rendered after the retry');
      expect(bff.calls.slice(before).map((call) => call.path)).to.deep.equal(['/content']);
    });
  });

  describe('when the content has rendered', () => {
    it('hides the light-DOM fallback', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const el = await fixture<ClinicBooking>(
        html`<clinic-booking api-base=${bff.apiBase}><a id="fallback" href="tel:+442079460000">Call to book</a></clinic-booking>`,
      );
      await waitUntil(() => hero(el), 'the content never rendered');
      expect(isShown(el.querySelector('#fallback')!)).to.equal(false);
    });
  });
});
