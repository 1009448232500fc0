import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { deepActiveElement, fixtureReady, formOf, markup , goToStep, pressed } from './support/widget.js';

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

    it('has no axe violations with the dialog closed', async () => {
      const el = await render();
      await expect(el).to.be.accessible();
    });
  });
});
