import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import {
  booked,
  bookedResult,
  control,
  deepActiveElement,
  fixtureReady,
  formOf,
  nextDate,
  postsTo,
  REFERENCE,
  stepOf,
  walkToDetails,
} from './support/widget.js';

/** Presses Tab until the focused element matches, a few dozen presses at most. */
async function tabUntil(matches: (el: Element | null) => boolean, what: string, most = 40): Promise<void> {
  for (let i = 0; i < most && !matches(deepActiveElement()); i++) await sendKeys({ press: 'Tab' });
  expect(matches(deepActiveElement()), `Tab never reached ${what}`).to.equal(true);
}

const focusedOn = (el: ClinicBooking, step: string) => () => deepActiveElement()?.id === 'step-heading' && stepOf(formOf(el)) === step;

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(): Promise<ClinicBooking> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on('POST /appointments/book', () => booked());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="treatments booking"></clinic-booking>`);
    (document.activeElement as HTMLElement | null)?.blur();
    return el;
  }

  describe('used with the keyboard only', () => {
    it('books an appointment: "Book" a treatment, then each step by Tab, arrows and Enter, and reads the reference', async () => {
      const el = await render();
      const date = nextDate('Tuesday');

      await sendKeys({ press: 'Tab' });
      expect(deepActiveElement()?.textContent?.trim()).to.equal('Book Check-up');
      await sendKeys({ press: 'Enter' });
      // The treatment is chosen: the dentist step's heading takes focus, which announces it.
      await waitUntil(focusedOn(el, 'dentist'), '"Book" did not move focus to the dentist step');

      await sendKeys({ press: 'Tab' });
      expect(deepActiveElement()?.textContent?.trim()).to.equal('Any dentist');
      await sendKeys({ press: 'Enter' });
      await waitUntil(focusedOn(el, 'day'), 'the day step did not take focus');

      // One tab stop in the calendar grid (roving tabindex), then arrows to the day.
      await tabUntil((f) => f?.closest('[role="grid"]') != null, 'the calendar grid');
      for (let i = 0; i < 40 && deepActiveElement()?.getAttribute('data-date') !== date; i++) await sendKeys({ press: 'ArrowRight' });
      expect(deepActiveElement()?.getAttribute('data-date')).to.equal(date);
      await sendKeys({ press: 'Enter' });
      // The day is chosen and keeps focus; its times show beside it, one tab stop, then arrows.
      await waitUntil(() => formOf(el).shadowRoot!.querySelector('.times [data-time="08:00"]'), 'the day\'s times did not show');
      await tabUntil((f) => f?.getAttribute('data-time') != null, 'the times');
      expect(deepActiveElement()?.getAttribute('data-time')).to.equal('08:00');
      for (let i = 0; i < 20 && deepActiveElement()?.getAttribute('data-time') !== '10:30'; i++) await sendKeys({ press: 'ArrowRight' });
      expect(deepActiveElement()?.getAttribute('data-time')).to.equal('10:30');
      await sendKeys({ press: 'Enter' });
      await waitUntil(focusedOn(el, 'details'), 'the details step did not take focus');

      await sendKeys({ press: 'Tab' });
      expect(deepActiveElement()?.id).to.equal('patient_name');
      await sendKeys({ type: 'Kay Board' });
      await sendKeys({ press: 'Tab' });
      expect(deepActiveElement()?.id).to.equal('patient_phone');
      await sendKeys({ type: '+44 20 7946 0111' });
      await sendKeys({ press: 'Enter' });
      await waitUntil(focusedOn(el, 'review'), 'Enter did not move on to the review');

      await tabUntil((f) => f?.getAttribute('part') === 'submit', 'the "Book appointment" button');
      await sendKeys({ press: 'Enter' });

      const result = await bookedResult(formOf(el));
      expect(result.querySelector('[data-reference]')!.textContent).to.equal(REFERENCE);
      await waitUntil(() => deepActiveElement()?.id === 'result-heading', 'focus did not move to the result');
      const [call] = postsTo(bff.calls, '/appointments/book');
      expect(call!.body).to.deep.equal({
        patient_name: 'Kay Board',
        patient_phone: '+44 20 7946 0111',
        appointment_date: date,
        appointment_time: '10:30',
        treatment_id: 1,
        website: '',
      });
    });

    it('goes by Tab from the last field to the step buttons, never to the hidden honeypot', async () => {
      const el = await render();
      await walkToDetails(formOf(el));
      control(formOf(el), 'note').focus();
      const stops: string[] = [];
      for (let i = 0; i < 2; i++) {
        await sendKeys({ press: 'Tab' });
        stops.push(deepActiveElement()?.textContent?.trim() || deepActiveElement()?.id || '');
      }
      expect(stops).to.deep.equal(['Back', 'Continue']);
    });

    it('shows the problems and focuses the first one when Enter submits incomplete details', async () => {
      const el = await render();
      await walkToDetails(formOf(el));
      control(formOf(el), 'patient_name').focus();
      await sendKeys({ type: 'Kay Board' });
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => deepActiveElement()?.id === 'patient_phone', 'focus did not move to the first invalid field');
      expect(control(formOf(el), 'patient_phone').getAttribute('aria-invalid')).to.equal('true');
      expect(stepOf(formOf(el))).to.equal('details');
      expect(postsTo(bff.calls, '/appointments/book')).to.have.length(0);
    });
  });
});
