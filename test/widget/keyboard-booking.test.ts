import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { booked, bookedResult, control, deepActiveElement, fixtureReady, formOf, nextDate, postsTo, REFERENCE } from './support/widget.js';

/**
 * The keys that type an ISO date into Chromium's native date input: its
 * fields follow the browser locale's order (month/day/year in en-US), and
 * each two-digit field moves on to the next by itself.
 */
function dateKeys(iso: string): string {
  const [year, month, day] = iso.split('-') as [string, string, string];
  const digits: Record<string, string> = { year, month, day };
  return new Intl.DateTimeFormat(navigator.language)
    .formatToParts(new Date(2031, 2, 4))
    .filter((part) => part.type in digits)
    .map((part) => digits[part.type])
    .join('');
}

/** The keys for HH:MM in the native time input: 12-hour locales add an AM/PM letter. */
function timeKeys(hhmm: string): string {
  const [hours, minutes] = hhmm.split(':').map(Number) as [number, number];
  const twelveHour = new Intl.DateTimeFormat(navigator.language, { hour: 'numeric' }).resolvedOptions().hour12;
  if (!twelveHour) return `${String(hours).padStart(2, '0')}${String(minutes).padStart(2, '0')}`;
  const hour12 = hours % 12 || 12;
  return `${String(hour12).padStart(2, '0')}${String(minutes).padStart(2, '0')}${hours < 12 ? 'A' : 'P'}`;
}

/**
 * Presses Tab until the field with that id has focus. A native date input
 * keeps Tab for its own fields (and stops once more after the year), so the
 * count depends on the browser; a few presses at most.
 */
async function tabTo(id: string, most = 4): Promise<void> {
  for (let i = 0; i < most && deepActiveElement()?.id !== id; i++) await sendKeys({ press: 'Tab' });
  expect(deepActiveElement()?.id, `Tab never reached #${id}`).to.equal(id);
}

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(): Promise<ClinicBooking> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on('POST /appointments/book', () => booked(77));
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="treatments booking"></clinic-booking>`);
    (document.activeElement as HTMLElement | null)?.blur();
    return el;
  }

  describe('used with the keyboard only', () => {
    it('books an appointment: "Book" a treatment, type each field, Enter, and read the reference', async () => {
      const el = await render();
      const date = nextDate('Tuesday');

      await sendKeys({ press: 'Tab' });
      expect(deepActiveElement()?.textContent?.trim()).to.equal('Book Check-up');
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => deepActiveElement()?.id === 'patient_name', '"Book" did not move focus to the form');

      await sendKeys({ type: 'Kay Board' });
      await sendKeys({ press: 'Tab' });
      expect(deepActiveElement()?.id).to.equal('patient_phone');
      await sendKeys({ type: '+44 20 7946 0111' });
      await sendKeys({ press: 'Tab' });
      expect(deepActiveElement()?.id).to.equal('appointment_date');
      await sendKeys({ type: dateKeys(date) });
      expect(control(formOf(el), 'appointment_date').value).to.equal(date);
      await tabTo('appointment_time');
      await sendKeys({ type: timeKeys('10:30') });
      expect(control(formOf(el), 'appointment_time').value).to.equal('10:30');
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

    it('goes by Tab from the last field to the submit button, never to the hidden honeypot', async () => {
      const el = await render();
      control(formOf(el), 'note').focus();
      const stops: string[] = [];
      for (let i = 0; i < 3; i++) {
        await sendKeys({ press: 'Tab' });
        const active = deepActiveElement();
        stops.push(active?.id || active?.getAttribute('type') || active?.localName || '');
      }
      expect(stops[0]).to.equal('submit');
      expect(stops).not.to.include('honeypot');
    });

    it('shows the problems and focuses the first one when Enter submits an incomplete form', async () => {
      const el = await render();
      control(formOf(el), 'patient_name').focus();
      await sendKeys({ type: 'Kay Board' });
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => deepActiveElement()?.id === 'patient_phone', 'focus did not move to the first invalid field');
      expect(control(formOf(el), 'patient_phone').getAttribute('aria-invalid')).to.equal('true');
      expect(postsTo(bff.calls, '/appointments/book')).to.have.length(0);
    });
  });
});
