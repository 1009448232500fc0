import { expect, html } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { fixtureReady, markup } from './support/widget.js';

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(sections?: string): Promise<ClinicBooking> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    return fixtureReady(
      sections === undefined
        ? html`<clinic-booking api-base=${bff.apiBase}></clinic-booking>`
        : html`<clinic-booking api-base=${bff.apiBase} sections=${sections}></clinic-booking>`,
    );
  }

  const requested = () => bff.calls.map((call) => `${call.method} ${call.path}`).sort();
  /** The parts of the top-level blocks that rendered, in order. */
  const shownParts = (el: ClinicBooking) =>
    [...el.shadowRoot!.querySelectorAll('.root > [part]')].map((node) => node.getAttribute('part'));

  describe('with every section (the default)', () => {
    it('asks the BFF for its content once: one request', async () => {
      await render();
      expect(requested()).to.deep.equal(['GET /content']);
    });

    it('renders the website, treatments, dentists, booking form and status lookup', async () => {
      const el = await render();
      expect(shownParts(el)).to.include.members(['site-header', 'hero', 'treatments', 'dentists', 'booking', 'status']);
    });
  });

  describe('with sections="status"', () => {
    it('makes no content request and shows only the status lookup', async () => {
      const el = await render('status');
      expect(bff.calls).to.deep.equal([]);
      expect(shownParts(el)).to.deep.equal(['status']);
      expect(el.shadowRoot!.querySelector('clinic-booking-status')).not.to.equal(null);
      await expect(el).to.be.accessible();
    });
  });

  describe('with sections="treatments"', () => {
    it('asks for the content once and shows only the treatments', async () => {
      const el = await render('treatments');
      expect(requested()).to.deep.equal(['GET /content']);
      expect(shownParts(el)).to.deep.equal(['treatments']);
    });
  });

  describe('with sections="dentists"', () => {
    it('asks for the content once', async () => {
      const el = await render('dentists');
      expect(requested()).to.deep.equal(['GET /content']);
      expect(shownParts(el)).to.deep.equal(['dentists']);
    });
  });

  describe('with sections="site"', () => {
    it('asks for the content once and shows no treatments, dentists or form', async () => {
      const el = await render('site');
      expect(requested()).to.deep.equal(['GET /content']);
      expect(shownParts(el)).to.include('hero');
      expect(markup(el.shadowRoot!.querySelector('clinic-booking-form, clinic-booking-status, [part="treatments"], [part="dentists"]'))).to.equal(null);
    });
  });

  describe('with sections="booking"', () => {
    it('asks for the content the form needs (website hours, treatments, dentists) once and shows only the form', async () => {
      const el = await render('booking');
      expect(requested()).to.deep.equal(['GET /content']);
      expect(shownParts(el)).to.deep.equal(['booking']);
    });
  });

  describe('with a comma-separated list', () => {
    it('shows the sections named, in the widget order', async () => {
      const el = await render('dentists,treatments');
      expect(requested()).to.deep.equal(['GET /content']);
      expect(shownParts(el)).to.deep.equal(['treatments', 'dentists']);
    });
  });

  describe('with only unknown section names', () => {
    it('falls back to every section', async () => {
      const el = await render('nonsense');
      expect(requested()).to.deep.equal(['GET /content']);
      expect(shownParts(el)).to.include.members(['treatments', 'dentists', 'booking', 'status']);
    });
  });
});
