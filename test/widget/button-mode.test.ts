import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { clickIn, deepActiveElement, fixtureReady, formOf, markup, goToStep, nextDate, pickDay, pickTime, pressed } from './support/widget.js';
import { setViewport } from './support/viewport.js';

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(sections = 'site treatments booking'): Promise<ClinicBooking> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    return fixtureReady(html`<clinic-booking api-base=${bff.apiBase} mode="button" sections=${sections}></clinic-booking>`);
  }

  const openButton = (el: ClinicBooking) => el.shadowRoot!.querySelector<HTMLButtonElement>('[part="open-button"]')!;
  const dialog = (el: ClinicBooking) => el.shadowRoot!.querySelector<HTMLDialogElement>('dialog')!;

  describe('with mode="button"', () => {
    it('shows a floating button instead of the inline form', async () => {
      const el = await render();
      const button = openButton(el);
      expect(button.textContent!.trim()).to.equal('Book an appointment');
      expect(getComputedStyle(button).position).to.equal('fixed');
      expect(button.getAttribute('aria-haspopup')).to.equal('dialog');
      expect(markup(el.shadowRoot!.querySelector('[part="booking"]'))).to.equal(null);
      expect(dialog(el).open).to.equal(false);
      expect(dialog(el).hasAttribute('open')).to.equal(false);
    });

    it('opens a modal dialog holding the form when the button is clicked', async () => {
      const el = await render();
      openButton(el).click();
      const opened = dialog(el);
      expect(opened.hasAttribute('open')).to.equal(true);
      expect(opened.matches(':modal')).to.equal(true);
      expect(opened.querySelector('clinic-booking-form') === formOf(el), 'the form is in the dialog').to.equal(true);
      expect(opened.querySelector('#booking-heading')!.textContent).to.equal('Appointment title');
      expect(opened.contains(el.shadowRoot!.activeElement), 'focus is in the dialog').to.equal(true);
    });

    it('closes the dialog on Escape and gives focus back to the button', async () => {
      const el = await render();
      openButton(el).focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => dialog(el).open, 'Enter did not open the dialog');
      await sendKeys({ press: 'Escape' });
      await waitUntil(() => !dialog(el).open, 'Escape did not close the dialog');
      expect(dialog(el).hasAttribute('open')).to.equal(false);
      expect(deepActiveElement() === openButton(el), 'focus is back on the button').to.equal(true);
    });

    it('closes the dialog with its Close button', async () => {
      const el = await render();
      openButton(el).click();
      const close = [...dialog(el).querySelectorAll('button')].find((button) => button.textContent!.trim() === 'Close')!;
      close.click();
      expect(dialog(el).open).to.equal(false);
    });

    it('opens the dialog with the treatment chosen on "Book"', async () => {
      const el = await render();
      el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="treatment"] button')[1]!.click();
      await waitUntil(() => dialog(el).open, 'the dialog did not open');
      await formOf(el).updateComplete;
      expect(deepActiveElement()?.id).to.equal('step-heading');
      await goToStep(formOf(el), 'treatment');
      expect(pressed(formOf(el))).to.equal('2');
    });

    it('opens the dialog from the CTA link', async () => {
      const el = await render();
      el.shadowRoot!.querySelector<HTMLAnchorElement>('[part="cta"]')!.click();
      expect(dialog(el).open).to.equal(true);
      expect(deepActiveElement()?.id).to.equal('step-heading');
    });

    it('has no axe violations with the dialog open', async () => {
      const el = await render();
      openButton(el).click();
      expect(dialog(el).open).to.equal(true);
      await expect(el).to.be.accessible();
    });

    it('keeps the dialog one size across the steps, the form scrolling inside it, with no card border of its own', async () => {
      const el = await render('booking');
      openButton(el).click();
      const form = formOf(el);
      const size = () => {
        const box = dialog(el).getBoundingClientRect();
        return `${Math.round(box.width)}x${Math.round(box.height)}`;
      };
      const sizes = [size()];
      await clickIn(form, '[data-value="1"]');
      sizes.push(size());
      await clickIn(form, '[data-value=""]');
      sizes.push(size());
      await pickDay(form, nextDate('Tuesday'));
      await waitUntil(() => form.shadowRoot!.querySelector('.times [data-time]'), 'no times shown');
      sizes.push(size());
      await pickTime(form, '10:00');
      sizes.push(size());
      expect(new Set(sizes).size, sizes.join(', ')).to.equal(1);
      const inner = getComputedStyle(form.shadowRoot!.querySelector('form')!);
      expect(inner.borderTopWidth).to.equal('0px');
      expect(getComputedStyle(form).overflowY).to.equal('auto');
      await expect(el).to.be.accessible();
    });

    it('has no axe violations with the dialog closed', async () => {
      const el = await render();
      await expect(el).to.be.accessible();
    });
  });
  describe('with mode="button" and no sections attribute', () => {
    async function renderDefault(): Promise<ClinicBooking> {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      return fixtureReady(html`<clinic-booking api-base=${bff.apiBase} mode="button"></clinic-booking>`);
    }

    it('shows only the floating button and its dialog, which holds the booking form', async () => {
      const el = await renderDefault();
      expect(openButton(el).textContent!.trim()).to.equal('Book an appointment');
      expect(dialog(el).querySelector('clinic-booking-form') === formOf(el), 'the form is in the dialog').to.equal(true);
      for (const part of ['hero', 'site-header', 'treatments', 'dentists', 'status', 'booking']) {
        expect(markup(el.shadowRoot!.querySelector(`[part="${part}"]`)), part).to.equal(null);
      }
    });

    it('takes no space in the page', async () => {
      const el = await renderDefault();
      expect(el.getBoundingClientRect().height).to.equal(0);
    });

    it('shows the whole site when switched to mode="inline", without loading again', async () => {
      const el = await renderDefault();
      const before = bff.calls.length;
      el.mode = 'inline';
      await waitUntil(() => el.shadowRoot!.querySelector('[part="status"]'), 'the other sections never rendered');
      expect(markup(el.shadowRoot!.querySelector('[part="open-button"]'))).to.equal(null);
      expect(el.shadowRoot!.querySelector('[part="site-header"] .brand')!.textContent).to.equal('Fixture Dental');
      expect(bff.calls.length).to.equal(before);
    });

    it('has no axe violations', async () => {
      const el = await renderDefault();
      await expect(el).to.be.accessible();
    });
  });

  describe('at 360 px wide', () => {
    afterEach(() => setViewport({ width: 800, height: 600 }));

    it('keeps the button inside the viewport, 1rem from its bottom and right edges', async () => {
      await setViewport({ width: 360, height: 640 });
      const el = await render('booking');
      const box = openButton(el).getBoundingClientRect();
      expect(Math.round(innerWidth - box.right)).to.equal(16);
      expect(Math.round(innerHeight - box.bottom)).to.equal(16);
      expect(box.left).to.be.at.least(16);
    });

    it('moves the button by --clinic-booking-button-offset', async () => {
      await setViewport({ width: 360, height: 640 });
      const el = await render('booking');
      el.style.setProperty('--clinic-booking-button-offset', '2.5rem');
      const box = openButton(el).getBoundingClientRect();
      expect(Math.round(innerWidth - box.right)).to.equal(40);
      expect(Math.round(innerHeight - box.bottom)).to.equal(40);
    });

    it('wraps a long label rather than leave the viewport', async () => {
      await setViewport({ width: 360, height: 640 });
      const el = await render('booking');
      openButton(el).textContent = 'Book an appointment with one of our friendly dentists today, online';
      const box = openButton(el).getBoundingClientRect();
      expect(box.left).to.be.at.least(16);
      expect(Math.round(innerWidth - box.right)).to.equal(16);
    });

    it('keeps the Close button inside the dialog at 320 px, beside a long title and a long label', async () => {
      await setViewport({ width: 320, height: 640 });
      const el = await render('booking');
      openButton(el).click();
      const opened = dialog(el);
      // The demo clinic's title and German's "Schließen", the longest pair the screenshots showed clipped.
      opened.querySelector('#booking-heading')!.textContent = 'Book an appointment online';
      const close = opened.querySelector<HTMLButtonElement>('.dialog-header .button')!;
      close.textContent = 'Schließen';
      const inside = opened.getBoundingClientRect().right - parseFloat(getComputedStyle(opened).paddingRight);
      expect(close.getBoundingClientRect().right).to.be.at.most(inside + 0.5);
      expect(close.scrollWidth).to.be.at.most(close.clientWidth);
    });

    it('adds the safe-area insets to the offset', async () => {
      await setViewport({ width: 360, height: 640 });
      const el = await render('booking');
      // env() cannot be set from a page; the rule must name both, as the computed text shows.
      const rule = [...el.shadowRoot!.adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules])]
        .map((r) => r.cssText)
        .find((text) => text.startsWith('.open-button'))!;
      expect(rule).to.contain('env(safe-area-inset-bottom');
      expect(rule).to.contain('env(safe-area-inset-right');
      expect(rule).to.contain('var(--clinic-booking-button-offset');
    });
  });
});
