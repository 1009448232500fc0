import { expect, html, waitUntil } from '@open-wc/testing';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { availabilityAnswer, clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import {
  booked,
  bookedResult,
  clickIn,
  deepActiveElement,
  failureBox,
  fillForm,
  fixtureReady,
  formOf,
  nextDate,
  pickDay,
  postsTo,
  refused,
  settled,
  stepOf,
  submitForm,
  timesLoaded,
} from './support/widget.js';

const BOOK = 'POST /appointments/book';
const AVAILABILITY = 'GET /availability';
const clock = (hhmm: string, lang = 'en') =>
  new Intl.DateTimeFormat(lang, { timeStyle: 'short', timeZone: 'UTC' }).format(new Date(`2000-01-01T${hhmm}:00Z`));

/** The time step: free times as buttons, taken ones greyed out, never a typed time. */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(lang = 'en'): Promise<{ el: ClinicBooking; form: ClinicBookingForm }> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" lang=${lang}></clinic-booking>`);
    return { el, form: formOf(el) };
  }

  /** Walks to the time step of `date` with this treatment and dentist. */
  async function timeStep(form: ClinicBookingForm, date = nextDate('Tuesday'), treatment = '1', doctor = ''): Promise<void> {
    await clickIn(form, `[data-value="${treatment}"]`);
    await clickIn(form, `[data-value="${doctor}"]`);
    await pickDay(form, date);
    await timesLoaded(form);
  }

  const slots = (form: ClinicBookingForm) => [...form.shadowRoot!.querySelectorAll<HTMLButtonElement>('.slots button')];
  const times = (form: ClinicBookingForm) => slots(form).map((b) => b.dataset.time);
  const header = (form: ClinicBookingForm, period: number) => form.shadowRoot!.querySelector<HTMLButtonElement>(`#period-${period}`)!;
  /** Every time of the day, each period opened in turn with its header (one shows at a time). */
  async function everyTime(form: ClinicBookingForm): Promise<(string | undefined)[]> {
    const all = [];
    for (const period of [0, 1, 2]) {
      if (header(form, period).disabled) continue;
      await clickIn(form, `#period-${period}`);
      all.push(...times(form));
    }
    return all;
  }

  describe('on the time step', () => {
    it("offers the day's starts on the 15-minute grid, the last one ending by closing", async () => {
      const { form } = await render();
      await timeStep(form); // Tuesday 08:00–18:00, Check-up 30 minutes
      const all = await everyTime(form);
      expect(all[0]).to.equal('08:00');
      expect(all[1]).to.equal('08:15');
      expect(all.at(-1)).to.equal('17:30');
      expect(all).to.have.length(39);
      expect(form.shadowRoot!.querySelector('input[type="time"]')).to.equal(null);
    });

    it('asks the BFF which are taken, for the day, the dentist and the treatment', async () => {
      const { form } = await render();
      const date = nextDate('Tuesday');
      await timeStep(form, date, '2', '1');
      const asked = bff.calls.filter((call) => call.path === '/availability').at(-1)!;
      expect(asked.query).to.deep.equal({ date, doctor_id: '1', treatment_id: '2' });
    });

    it('greys out taken times, disabled with the reason "Taken"', async () => {
      const { form } = await render();
      bff.on(AVAILABILITY, () => ({ status: 200, body: availabilityAnswer([{ time: '10:00', status: 'taken' }, { time: '10:15', status: 'open' }]) }));
      await timeStep(form);
      const taken = slots(form).find((b) => b.dataset.time === '10:00')!;
      expect(taken.disabled).to.equal(true);
      expect(form.shadowRoot!.getElementById(taken.getAttribute('aria-describedby')!)!.textContent).to.equal('Taken');
      expect(slots(form).find((b) => b.dataset.time === '10:15')!.disabled).to.equal(false);
    });

    it("shows times in the language's clock: 12-hour in en, 24-hour in de", async () => {
      const { form } = await render();
      await timeStep(form);
      expect(slots(form)[0]!.textContent!.trim()).to.equal(clock('08:00'));
      expect(clock('14:30')).to.match(/PM/);
      bff.restore();
      const de = (await render('de')).form;
      await timeStep(de);
      await clickIn(de, '#period-1');
      expect(slots(de).find((b) => b.dataset.time === '14:30')!.textContent!.trim()).to.equal('14:30');
    });

    it('offers on today only the times still ahead', async () => {
      bff = installFakeBff(clinicFixtures({ site: { opening_hours: Object.fromEntries(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((d) => [d, { open: '00:00', close: '23:59', is_closed: false }])) } }), uniqueApiBase());
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
      const form = formOf(el);
      const now = new Date();
      const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
      await clickIn(form, '[data-value=""]');
      await clickIn(form, '[data-value=""]');
      if (form.shadowRoot!.querySelector(`[data-date="${today}"]`)?.getAttribute('aria-disabled')) return; // after 23:30: nothing left today
      await pickDay(form, today);
      await timesLoaded(form);
      const hhmm = now.toTimeString().slice(0, 5);
      expect((await everyTime(form)).every((time) => time! > hhmm)).to.equal(true);
    });

    it('heads each period with a button that shows its count of free times and opens it, one period at a time', async () => {
      const { el, form } = await render();
      // 09:00 taken, and the whole evening (17:00 to 17:30).
      const taken = ['09:00', '17:00', '17:15', '17:30'].map((time) => ({ time, status: 'taken' as const }));
      bff.on(AVAILABILITY, () => ({ status: 200, body: availabilityAnswer(taken) }));
      await timeStep(form);
      const headers = [0, 1, 2].map((period) => header(form, period));
      expect(headers.map((h) => h.textContent!.replace(/\s+/g, ' ').trim())).to.deep.equal(['Morning 15 free', 'Afternoon 20 free', 'Evening 0 free']);
      const expanded = () => headers.map((h) => h.getAttribute('aria-expanded'));
      // The first with a free time is open; a period with none stays closed, shown and disabled.
      expect(expanded()).to.deep.equal(['true', 'false', 'false']);
      expect(headers[2]!.disabled).to.equal(true);
      const list = () => form.shadowRoot!.getElementById(headers[0]!.getAttribute('aria-controls')!)!;
      expect(list().getAttribute('role')).to.equal('group');
      expect(form.shadowRoot!.getElementById(list().getAttribute('aria-labelledby')!)).to.equal(headers[0]);
      expect(times(form)).to.have.length(16); // the morning's, 09:00 among them, disabled
      headers[1]!.focus();
      await clickIn(form, '#period-1');
      expect(expanded()).to.deep.equal(['false', 'true', 'false']);
      expect(form.shadowRoot!.getElementById(list().getAttribute('aria-labelledby')!)).to.equal(headers[1]);
      expect([times(form)[0], times(form).at(-1)]).to.deep.equal(['12:00', '16:45']);
      expect(deepActiveElement() === headers[1], 'focus stays on the header').to.equal(true);
      // The times' tab stop is in the open period: its first free time.
      expect(slots(form).filter((b) => b.tabIndex === 0).map((b) => b.dataset.time)).to.deep.equal(['12:00']);
      await expect(el).to.be.accessible();
    });

    it('opens the period of the chosen time when the patient comes back to the day', async () => {
      const { form } = await render();
      await timeStep(form);
      await clickIn(form, '#period-1');
      await clickIn(form, '.slots [data-time="14:30"]');
      expect(stepOf(form)).to.equal('details');
      await clickIn(form, 'form > .row > button[type="button"]'); // Back
      await timesLoaded(form);
      expect(header(form, 1).getAttribute('aria-expanded')).to.equal('true');
      expect(slots(form).find((b) => b.dataset.time === '14:30')!.getAttribute('aria-pressed')).to.equal('true');
      expect(slots(form).filter((b) => b.tabIndex === 0).map((b) => b.dataset.time), 'the tab stop on it').to.deep.equal(['14:30']);
    });

    it('picks a time with a click and goes on to the details', async () => {
      const { form } = await render();
      await timeStep(form);
      await clickIn(form, '.slots [data-time="11:45"]');
      expect(stepOf(form)).to.equal('details');
      expect(deepActiveElement()?.id).to.equal('step-heading');
    });

    it('has no axe violations, with a taken time', async () => {
      const { el, form } = await render();
      bff.on(AVAILABILITY, () => ({ status: 200, body: availabilityAnswer([{ time: '09:00', status: 'taken' }]) }));
      await timeStep(form);
      await expect(el).to.be.accessible();
    });
  });

  describe('when the time is taken by someone else first (409)', () => {
    async function lose() {
      const rendered = await render();
      let tries = 0;
      bff.on(BOOK, () => (tries++ === 0 ? refused(409, 'slot_unavailable', 'This dentist is already booked') : booked()));
      await fillForm(rendered.form, { appointment_time: '10:00', patient_name: 'Jo Late', patient_phone: '+44 20 7946 0001', doctor_id: '1' });
      await submitForm(rendered.form);
      const failure = await failureBox(rendered.form);
      await settled(rendered.form);
      await waitUntil(() => failure.querySelector('.slots button'), 'no alternatives offered');
      return { ...rendered, failure };
    }

    it('marks the time taken and goes back to the times, the alert focused', async () => {
      const { form, failure } = await lose();
      expect(stepOf(form)).to.equal('day');
      expect(deepActiveElement() === failure).to.equal(true);
      expect(slots(form).find((b) => b.dataset.time === '10:00' && !failure.contains(b))!.disabled).to.equal(true);
    });

    it('offers the three nearest open times as one-click alternatives', async () => {
      const { failure } = await lose();
      const offered = [...failure.querySelectorAll<HTMLButtonElement>('.slots button')].map((b) => b.dataset.time);
      expect(offered).to.have.length(3);
      expect(offered).to.include.members(['09:45', '10:15']);
      expect(offered).not.to.include('10:00');
      expect(failure.textContent).to.contain('Nearest free times:');
    });

    it('books an alternative with one click and the review', async () => {
      const { form, failure } = await lose();
      failure.querySelector<HTMLButtonElement>('[data-time="10:15"]')!.click();
      await form.updateComplete;
      await submitForm(form);
      await bookedResult(form);
      const sent = postsTo(bff.calls, '/appointments/book').map((call) => (call.body as { appointment_time: string }).appointment_time);
      expect(sent).to.deep.equal(['10:00', '10:15']);
    });

    it('has no axe violations', async () => {
      const { el } = await lose();
      await expect(el).to.be.accessible();
    });
  });
});
