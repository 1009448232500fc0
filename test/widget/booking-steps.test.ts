import { expect, html, waitUntil } from '@open-wc/testing';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import {
  aPatient,
  clickIn,
  control,
  deepActiveElement,
  fillForm,
  fixtureReady,
  formOf,
  goToStep,
  pickDay,
  pickTime,
  pressed,
  stepHeading,
  stepOf,
  STEPS,
  typeInto,
} from './support/widget.js';

/** The booking section as a step flow: one form, one step at a time, each announced. */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(attributes = ''): Promise<{ el: ClinicBooking; form: ClinicBookingForm }> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const el = await fixtureReady(
      attributes === 'prefilled'
        ? html`<clinic-booking api-base=${bff.apiBase} sections="booking" treatment="2" patient-name="Pre Filled" patient-phone="+44 20 7946 0123"></clinic-booking>`
        : html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`,
    );
    return { el, form: formOf(el) };
  }

  describe('going forward', () => {
    it('goes treatment, dentist, day, time, details, review, each heading numbered and focused', async () => {
      const { form } = await render();
      const seen: string[] = [stepHeading(form)];
      await clickIn(form, '[data-value="1"]');
      seen.push(stepHeading(form));
      expect(deepActiveElement()?.id).to.equal('step-heading');
      await clickIn(form, '[data-value="2"]');
      seen.push(stepHeading(form));
      await pickDay(form, aPatient().appointment_date);
      seen.push(stepHeading(form));
      await pickTime(form, '10:00');
      seen.push(stepHeading(form));
      await typeInto(form, 'patient_name', 'Jane Patient');
      await typeInto(form, 'patient_phone', '+44 20 7946 0958');
      form.shadowRoot!.querySelector('form')!.requestSubmit();
      await form.updateComplete;
      seen.push(stepHeading(form));
      expect(seen).to.deep.equal([
        'Step 1 of 5 Treatment',
        'Step 2 of 5 Dentist',
        'Step 3 of 5 Date and time',
        'Step 3 of 5 Date and time',
        'Step 4 of 5 Your details',
        'Step 5 of 5 Check and book',
      ]);
      expect(deepActiveElement()?.id).to.equal('step-heading');
      expect(form.shadowRoot!.querySelector('form')!.getAttribute('aria-labelledby')).to.equal('step-heading');
    });

    it('offers "Not sure yet" and each treatment with its length and fee, and "Any dentist" and each dentist', async () => {
      const { form } = await render();
      const choices = () => [...form.shadowRoot!.querySelectorAll('.choices button')].map((b) => b.textContent!.replace(/\s+/g, ' ').trim());
      expect(choices()).to.deep.equal(['Not sure yet', 'Check-up30 min · £60.00', 'Whitening90 min · £350.50']);
      await clickIn(form, '[data-value=""]');
      expect(choices()).to.deep.equal(['Any dentist', 'Dr Ann SmithGeneral', 'Dr Raj PatelOrthodontics']);
    });
  });

  describe('going back', () => {
    it('keeps every entry', async () => {
      const { form } = await render();
      await fillForm(form, { ...aPatient(), treatment_id: '2', doctor_id: '1', note: 'Hello' });
      await goToStep(form, 'details');
      expect(control(form, 'note').value).to.equal('Hello');
      expect(control(form, 'patient_name').value).to.equal('Jane Patient');
      await goToStep(form, 'day');
      await waitUntil(() => form.shadowRoot!.querySelector('.slots'), 'no slots shown');
      expect(form.shadowRoot!.querySelector('.slots [aria-pressed="true"]')?.getAttribute('data-time')).to.equal('10:00');
      expect(form.shadowRoot!.querySelector('[aria-selected="true"] button')?.getAttribute('data-date')).to.equal(aPatient().appointment_date);
      await goToStep(form, 'dentist');
      expect(pressed(form)).to.equal('1');
      await goToStep(form, 'treatment');
      expect(pressed(form)).to.equal('2');
    });
  });

  describe('with prefilled attributes', () => {
    it('skips the prefilled treatment and fills in the name and phone', async () => {
      const { form } = await render('prefilled');
      expect(stepOf(form)).to.equal('dentist');
      await clickIn(form, '[data-value=""]');
      await pickDay(form, aPatient().appointment_date);
      await pickTime(form, '10:00');
      expect(control(form, 'patient_name').value).to.equal('Pre Filled');
      expect(control(form, 'patient_phone').value).to.equal('+44 20 7946 0123');
    });
  });

  describe('at 320 px wide', () => {
    it('fits every step without scrolling sideways, with no axe violations', async () => {
      const { el, form } = await render();
      el.style.cssText = 'display:block;width:320px';
      const fits = async (step: string) => {
        await form.updateComplete;
        const box = form.shadowRoot!.querySelector('form')!;
        expect(box.scrollWidth, `${step} fits in 320 px`).to.be.at.most(box.clientWidth + 1);
        await expect(el).to.be.accessible();
      };
      await fits(STEPS[0]);
      await clickIn(form, '[data-value="1"]');
      await fits(STEPS[1]);
      await clickIn(form, '[data-value=""]');
      await fits(STEPS[2]);
      await pickDay(form, aPatient().appointment_date);
      await waitUntil(() => form.shadowRoot!.querySelector('.slots'), 'no slots shown');
      await fits(`${STEPS[2]} with its times`);
      await pickTime(form, '10:00');
      await fits(STEPS[3]);
      await typeInto(form, 'patient_name', 'Jane Patient');
      await typeInto(form, 'patient_phone', '+44 20 7946 0958');
      form.shadowRoot!.querySelector('form')!.requestSubmit();
      await fits(STEPS[4]);
    });
  });
});
