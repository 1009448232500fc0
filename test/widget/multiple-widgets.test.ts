import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import '../../widget/clinic-booking.js';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  /** Renders a page holding several widgets and waits until each has announced clinic-booking:ready. */
  async function renderPage(template: TemplateResult): Promise<{ page: HTMLElement; widgets: ClinicBooking[] }> {
    const ready = new Set<EventTarget>();
    const record = (event: Event) => ready.add(event.target!);
    document.addEventListener('clinic-booking:ready', record);
    try {
      const page = await fixture<HTMLElement>(template);
      const widgets = [...page.querySelectorAll('clinic-booking')];
      await waitUntil(() => widgets.every((widget) => ready.has(widget)), 'not every widget became ready');
      return { page, widgets };
    } finally {
      document.removeEventListener('clinic-booking:ready', record);
    }
  }

  const requested = () => bff.calls.map((call) => `${call.method} ${call.path}`).sort();

  describe('with two widgets on one page', () => {
    it('renders both, and the BFF receives the content request only once', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const { widgets } = await renderPage(html`<div>
        <clinic-booking api-base=${bff.apiBase}></clinic-booking>
        <clinic-booking api-base=${bff.apiBase}></clinic-booking>
      </div>`);
      for (const widget of widgets) {
        expect(widget.shadowRoot!.querySelector('[part="hero"] h2')!.textContent).to.equal('Hero title here');
        expect(widget.shadowRoot!.querySelectorAll('[part="treatment"]').length).to.equal(2);
      }
      expect(requested()).to.deep.equal(['GET /content']);
    });

    it('shares the one content request when they show different sections', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const { widgets } = await renderPage(html`<div>
        <clinic-booking api-base=${bff.apiBase} sections="treatments"></clinic-booking>
        <clinic-booking api-base=${bff.apiBase} sections="dentists booking"></clinic-booking>
      </div>`);
      expect(widgets[0]!.shadowRoot!.querySelector('[part="treatments"]')).not.to.equal(null);
      expect(widgets[1]!.shadowRoot!.querySelector('[part="dentists"]')).not.to.equal(null);
      expect(widgets[1]!.shadowRoot!.querySelector('clinic-booking-form')).not.to.equal(null);
      expect(requested()).to.deep.equal(['GET /content']);
    });

    it('serves a widget added later from the answers already received', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      await renderPage(html`<div><clinic-booking api-base=${bff.apiBase} sections="treatments"></clinic-booking></div>`);
      await renderPage(html`<div><clinic-booking api-base=${bff.apiBase} sections="treatments"></clinic-booking></div>`);
      expect(requested()).to.deep.equal(['GET /content']);
    });

    it('keeps widgets of different BFFs apart', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const other = installFakeBff(clinicFixtures({ site: { hero_title: 'Other clinic' } }), uniqueApiBase());
      try {
        const { widgets } = await renderPage(html`<div>
          <clinic-booking api-base=${bff.apiBase} sections="site"></clinic-booking>
          <clinic-booking api-base=${other.apiBase} sections="site"></clinic-booking>
        </div>`);
        expect(widgets[0]!.shadowRoot!.querySelector('[part="hero"] h2')!.textContent).to.equal('Hero title here');
        expect(widgets[1]!.shadowRoot!.querySelector('[part="hero"] h2')!.textContent).to.equal('Other clinic');
        expect(other.calls.map((call) => call.path)).to.deep.equal(['/content']);
      } finally {
        other.restore();
      }
    });

    // The same section twice on one page would repeat a landmark name (axe: landmark-unique);
    // a real page splits them, e.g. the content at the top and the form further down.
    it('has no axe violations', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const { page } = await renderPage(html`<div>
        <clinic-booking api-base=${bff.apiBase} sections="site treatments dentists"></clinic-booking>
        <clinic-booking api-base=${bff.apiBase} sections="booking status"></clinic-booking>
      </div>`);
      await expect(page).to.be.accessible();
    });

    it('has no axe violations when both show the same sections, the booking form too (landmark names stay unique)', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const { page, widgets } = await renderPage(html`<div>
        <clinic-booking api-base=${bff.apiBase} sections="site treatments dentists booking status"></clinic-booking>
        <clinic-booking api-base=${bff.apiBase} sections="treatments dentists booking status"></clinic-booking>
      </div>`);
      for (const widget of widgets) expect(widget.shadowRoot!.querySelector('clinic-booking-form')).not.to.equal(null);
      await expect(page).to.be.accessible();
    });

    it("names the second widget's booking form after its step heading and its number", async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const { widgets } = await renderPage(html`<div>
        <clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>
        <clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>
      </div>`);
      const nameOf = (widget: ClinicBooking) => {
        const root = widget.shadowRoot!.querySelector('clinic-booking-form')!.shadowRoot!;
        const form = root.querySelector('form')!;
        return form.getAttribute('aria-labelledby')!.split(' ').map((id) => root.getElementById(id)!.textContent!.replace(/\s+/g, ' ').trim()).join(' ');
      };
      expect(nameOf(widgets[0]!)).to.equal('Step 1 of 5 Treatment');
      expect(nameOf(widgets[1]!)).to.equal('Step 1 of 5 Treatment (2)');
    });

    it("names the second widget's sections after their headings and its number", async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const { widgets } = await renderPage(html`<div>
        <clinic-booking api-base=${bff.apiBase} sections="treatments"></clinic-booking>
        <clinic-booking api-base=${bff.apiBase} sections="treatments"></clinic-booking>
      </div>`);
      const nameOf = (widget: ClinicBooking) => {
        const section = widget.shadowRoot!.querySelector('[part="treatments"]')!;
        return section.getAttribute('aria-labelledby')!.split(' ').map((id) => widget.shadowRoot!.getElementById(id)!.textContent).join(' ');
      };
      expect(nameOf(widgets[0]!)).to.equal('Treatments');
      expect(nameOf(widgets[1]!)).to.equal('Treatments (2)');
    });
  });
});
