import { expect } from '@open-wc/testing';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import '../../widget/clinic-booking.js';
import { aPatient, fillForm } from './support/widget.js';

describe('<clinic-booking>', () => {
  describe('parts of the inner form and status lookup', () => {
    let bff: FakeBff;
    let style: HTMLStyleElement;
    afterEach(() => {
      bff.restore();
      style.remove();
      document.querySelectorAll('clinic-booking').forEach((el) => el.remove());
    });

    it('can be styled from the host page with ::part()', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      style = document.createElement('style');
      style.textContent = `
        clinic-booking::part(submit) { outline: 7px solid rgb(1, 2, 3); }
        clinic-booking::part(status-form) { outline: 5px solid rgb(4, 5, 6); }`;
      document.head.append(style);
      const el = document.createElement('clinic-booking');
      el.setAttribute('api-base', bff.apiBase);
      const ready = new Promise((resolve) => el.addEventListener('clinic-booking:ready', resolve, { once: true }));
      document.body.append(el);
      await ready;
      const form = el.shadowRoot!.querySelector('clinic-booking-form')!;
      const status = el.shadowRoot!.querySelector('clinic-booking-status')!;
      await form.updateComplete;
      await status.updateComplete;
      await fillForm(form, aPatient());

      const submit = form.shadowRoot!.querySelector('[part="submit"]')!;
      const statusForm = status.shadowRoot!.querySelector('[part="status-form"]')!;
      expect(getComputedStyle(submit).outlineColor).to.equal('rgb(1, 2, 3)');
      expect(getComputedStyle(statusForm).outlineColor).to.equal('rgb(4, 5, 6)');
    });
  });
});
