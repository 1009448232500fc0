import { expect, html } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { aPatient, fillForm, fixtureReady, formOf } from './support/widget.js';

// The clinic's own theme from GET /content (its `site`), and what the page sets, in computed-style form.
const CLINIC_PRIMARY = '#7c3aed';
const CLINIC_PRIMARY_RGB = 'rgb(124, 58, 237)';
const CLINIC_DARK = '#1e3a8a';
const CLINIC_DARK_RGB = 'rgb(30, 58, 138)';
const PAGE_PRIMARY_RGB = 'rgb(18, 52, 86)';
const DEFAULT_PRIMARY_RGB = 'rgb(15, 118, 110)';

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(
    template: (apiBase: string) => TemplateResult,
    site: Parameters<typeof clinicFixtures>[0] = { site: { theme_primary: CLINIC_PRIMARY, theme_dark: CLINIC_DARK } },
  ): Promise<ClinicBooking> {
    bff = installFakeBff(clinicFixtures(site), uniqueApiBase());
    return fixtureReady(template(bff.apiBase));
  }

  /** The background of the review step's "Book appointment" button, walked to with a valid booking. */
  async function submitBackground(el: ClinicBooking): Promise<string> {
    await fillForm(formOf(el), aPatient());
    return getComputedStyle(formOf(el).shadowRoot!.querySelector('button[type="submit"]')!).backgroundColor;
  }

  describe("with the clinic's theme only", () => {
    it("paints the submit button in the clinic's theme_primary", async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api}></clinic-booking>`);
      expect(await submitBackground(el)).to.equal(CLINIC_PRIMARY_RGB);
    });

    it("colours the headings with the clinic's theme_dark", async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api}></clinic-booking>`);
      expect(getComputedStyle(el.shadowRoot!.querySelector('[part="treatments"] h2')!).color).to.equal(CLINIC_DARK_RGB);
    });

    it('has no axe violations', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api}></clinic-booking>`);
      await expect(el).to.be.accessible();
    });
  });

  describe('with --clinic-booking-primary set on the host page', () => {
    it("overrides the clinic's theme from a page stylesheet", async () => {
      const el = await render(
        (api) => html`<div>
          <style>
            clinic-booking { --clinic-booking-primary: #123456; }
          </style>
          <clinic-booking api-base=${api}></clinic-booking>
        </div>`,
      );
      expect(await submitBackground(el)).to.equal(PAGE_PRIMARY_RGB);
    });

    it('overrides it when inherited from an ancestor', async () => {
      const el = await render(
        (api) => html`<section style="--clinic-booking-primary: #123456"><clinic-booking api-base=${api}></clinic-booking></section>`,
      );
      expect(await submitBackground(el)).to.equal(PAGE_PRIMARY_RGB);
    });

    it('leaves the colours the page did not set to the clinic', async () => {
      const el = await render(
        (api) => html`<clinic-booking api-base=${api} style="--clinic-booking-primary: #123456"></clinic-booking>`,
      );
      expect(await submitBackground(el)).to.equal(PAGE_PRIMARY_RGB);
      expect(getComputedStyle(el.shadowRoot!.querySelector('[part="treatments"] h2')!).color).to.equal(CLINIC_DARK_RGB);
    });
  });

  describe('with --clinic-booking-primary set and --clinic-booking-link not set', () => {
    const page = (api: string) =>
      html`<clinic-booking api-base=${api} style="--clinic-booking-primary: #123456"></clinic-booking>`;

    it("draws links in the page's primary", async () => {
      const el = await render(page);
      expect(getComputedStyle(el.shadowRoot!.querySelector('[part="contact"] a')!).color).to.equal(PAGE_PRIMARY_RGB);
    });

    it("writes the outline buttons' text in the page's primary", async () => {
      const el = await render(page);
      const outline = el.shadowRoot!.querySelector<HTMLElement>('.button.secondary') ?? formOf(el).shadowRoot!.querySelector<HTMLElement>('.button.secondary');
      expect(outline, 'an outline button').to.not.equal(null);
      expect(getComputedStyle(outline!).color).to.equal(PAGE_PRIMARY_RGB);
    });

    it('still lets --clinic-booking-link win when the page sets both', async () => {
      const el = await render(
        (api) => html`<clinic-booking api-base=${api} style="--clinic-booking-primary: #123456; --clinic-booking-link: #654321"></clinic-booking>`,
      );
      expect(getComputedStyle(el.shadowRoot!.querySelector('[part="contact"] a')!).color).to.equal('rgb(101, 67, 33)');
    });
  });

  describe('with a theme colour that is not a hex colour', () => {
    it('uses the default theme, never the raw value', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api}></clinic-booking>`, {
        site: { theme_primary: 'red; --clinic-booking-primary: lime' },
      });
      expect(await submitBackground(el)).to.equal(DEFAULT_PRIMARY_RGB);
    });
  });

  describe('with a light brand colour', () => {
    const LIGHT = { site: { theme_primary: '#fde68a', theme_dark: '#134e4a' } };
    const submit = (el: ClinicBooking) => formOf(el).shadowRoot!.querySelector('button[type="submit"]')!;

    it('writes dark text on its primary buttons', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api}></clinic-booking>`, LIGHT);
      expect(await submitBackground(el)).to.equal('rgb(253, 230, 138)');
      expect(getComputedStyle(submit(el)).color).to.equal('rgb(15, 23, 42)');
    });

    it('draws links in the dark theme colour instead', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api}></clinic-booking>`, LIGHT);
      const link = el.shadowRoot!.querySelector('[part="contact"] a')!;
      expect(getComputedStyle(link).color).to.equal('rgb(19, 78, 74)');
    });

    it('has no axe violations', async () => {
      const el = await render((api) => html`<clinic-booking api-base=${api}></clinic-booking>`, LIGHT);
      await expect(el).to.be.accessible();
    });
  });
});
