import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { WebsiteSite } from '../../contract/index.js';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeAnswer, type FakeBff } from './support/fake-bff.js';
import { availabilityAnswer, clinicFixtures, DEVICE_ZONE, uniqueApiBase } from './support/fixtures.js';
import { buttonNamed, clickIn, daysFromToday, deepActiveElement, deferred, fixtureReady, formOf, nextDate, pickDay, stepOf, timesLoaded } from './support/widget.js';

/** The calendar of the day step: the ARIA grid pattern over the booking horizon. */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  /** Renders the widget and walks to the day step with this treatment ('' for none). */
  async function dayStep(treatment = '', lang = 'en', site: Partial<WebsiteSite> = {}): Promise<{ el: ClinicBooking; form: ClinicBookingForm }> {
    bff = installFakeBff(clinicFixtures({ site }), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" lang=${lang}></clinic-booking>`);
    const form = formOf(el);
    await clickIn(form, `[data-value="${treatment}"]`);
    await clickIn(form, '[data-value=""]');
    return { el, form };
  }

  const grid = (form: ClinicBookingForm) => form.shadowRoot!.querySelector('[role="grid"]')!;
  const day = (form: ClinicBookingForm, date: string) => form.shadowRoot!.querySelector<HTMLButtonElement>(`[data-date="${date}"]`);
  /** A day's accessible description: the text of the element its aria-describedby names. */
  const reasonOf = (form: ClinicBookingForm, date: string) => {
    const id = day(form, date)?.getAttribute('aria-describedby');
    return id ? form.shadowRoot!.getElementById(id)?.textContent : undefined;
  };
  const focusedDate = () => deepActiveElement()?.getAttribute('data-date');
  const arrow = (form: ClinicBookingForm, name: string) => form.shadowRoot!.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]`)!;
  /** The month shown (YYYY-MM), by its days. */
  const monthShown = (form: ClinicBookingForm) => grid(form).querySelector('[data-date]')!.getAttribute('data-date')!.slice(0, 7);
  /** Back to today's month: the calendar opens on the first bookable day's, which may be the next. */
  async function toTodaysMonth(form: ClinicBookingForm): Promise<void> {
    for (let i = 0; i < 2 && monthShown(form) !== daysFromToday(0).slice(0, 7); i++) await clickIn(form, 'button[aria-label="Previous month"]');
  }
  const headers = (form: ClinicBookingForm) => [...grid(form).querySelectorAll('th')].map((th) => th.textContent!.trim());

  describe('on the day step', () => {
    it('is a grid of gridcells with one tab stop, labelled by the month', async () => {
      const { form } = await dayStep();
      expect(stepOf(form)).to.equal('day');
      const table = grid(form);
      expect(form.shadowRoot!.getElementById(table.getAttribute('aria-labelledby')!)!.textContent).to.match(/^[A-Z][a-z]+ \d{4}$/);
      expect(table.querySelectorAll('th[scope="col"]')).to.have.length(7);
      expect(table.querySelectorAll('td[role="gridcell"] button').length).to.be.within(28, 31);
      expect(table.querySelectorAll('button[tabindex="0"]')).to.have.length(1);
    });

    it('labels each day with its full date', async () => {
      const { form } = await dayStep();
      const date = nextDate('Tuesday');
      await pickDay(form, date); // shows its month and picks it
      const label = day(form, date)!.getAttribute('aria-label');
      expect(label).to.equal(new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`)));
      expect(form.shadowRoot!.querySelector('[aria-selected="true"] button')!.getAttribute('data-date')).to.equal(date);
    });

    it('disables a closed day (Sunday) with the reason "Closed"', async () => {
      const { form } = await dayStep();
      const sunday = nextDate('Sunday');
      for (let i = 0; i < 2 && !day(form, sunday); i++) await clickIn(form, 'button[aria-label="Next month"]');
      expect(day(form, sunday)!.getAttribute('aria-disabled')).to.equal('true');
      expect(reasonOf(form, sunday)).to.equal('Closed');
      day(form, sunday)!.click();
      await form.updateComplete;
      expect(stepOf(form)).to.equal('day');
    });

    it('disables past days with the reason "Past"', async () => {
      const { form } = await dayStep();
      await toTodaysMonth(form);
      const yesterday = daysFromToday(-1);
      // Only visible when yesterday is in this month; the grid never goes before today's month.
      if (day(form, yesterday)) {
        expect(day(form, yesterday)!.getAttribute('aria-disabled')).to.equal('true');
        expect(reasonOf(form, yesterday)).to.equal('Past');
      }
    });

    it('mutes the month arrow that leads nowhere, still focusable and saying why, and it moves nothing', async () => {
      const { form } = await dayStep();
      await toTodaysMonth(form);
      const prev = arrow(form, 'Previous month');
      expect(prev.disabled, 'focusable, so that its reason can be heard').to.equal(false);
      expect(prev.getAttribute('aria-disabled')).to.equal('true');
      expect(form.shadowRoot!.getElementById(prev.getAttribute('aria-describedby')!)!.textContent).to.equal('No earlier dates');
      const month = monthShown(form);
      await clickIn(form, 'button[aria-label="Previous month"]');
      expect(monthShown(form)).to.equal(month);
      expect(grid(form).querySelector('[tabindex="0"]')!.getAttribute('data-date')!.slice(0, 7)).to.equal(daysFromToday(0).slice(0, 7));
      // It looks unavailable: muted, no hand pointer; still a target of at least 24 by 24 px.
      const next = arrow(form, 'Next month');
      expect(getComputedStyle(prev).color).not.to.equal(getComputedStyle(next).color);
      expect(getComputedStyle(prev).borderStyle).not.to.equal(getComputedStyle(next).borderStyle);
      expect(getComputedStyle(prev).cursor).not.to.equal('pointer');
      expect(getComputedStyle(next).cursor).to.equal('pointer');
      const box = prev.getBoundingClientRect();
      expect(Math.min(box.width, box.height)).to.be.at.least(24);
    });

    it('disables a day with no time long enough for the treatment, with that reason', async () => {
      const weekday = { open: '08:00', close: '18:00', is_closed: false };
      const hours = { Monday: weekday, Tuesday: weekday, Wednesday: weekday, Thursday: weekday, Friday: weekday };
      // Saturday opens for an hour: too short for Whitening (90 minutes).
      const { form } = await dayStep('2', 'en', { opening_hours: { ...hours, Saturday: { open: '09:00', close: '10:00', is_closed: false } } });
      const saturday = nextDate('Saturday');
      for (let i = 0; i < 2 && !day(form, saturday); i++) await clickIn(form, 'button[aria-label="Next month"]');
      expect(reasonOf(form, saturday)).to.equal('No time long enough for this treatment');
    });

    it('ends at the booking horizon: later days are disabled as too far ahead', async () => {
      const { form } = await dayStep();
      for (let i = 0; i < 13 && arrow(form, 'Next month').getAttribute('aria-disabled') !== 'true'; i++) await clickIn(form, 'button[aria-label="Next month"]');
      const beyond = daysFromToday(366);
      if (day(form, beyond)) expect(reasonOf(form, beyond)).to.equal('Too far ahead');
      expect(monthShown(form)).to.equal(daysFromToday(365).slice(0, 7));
      const next = arrow(form, 'Next month');
      expect(next.getAttribute('aria-disabled')).to.equal('true');
      expect(form.shadowRoot!.getElementById(next.getAttribute('aria-describedby')!)!.textContent).to.equal('Bookings open up to 365 days ahead');
      await clickIn(form, 'button[aria-label="Next month"]');
      expect(monthShown(form)).to.equal(daysFromToday(365).slice(0, 7));
    });

    it('keeps its height from month to month: always six weeks', async () => {
      const { form } = await dayStep();
      const heights = new Set<number>();
      for (let i = 0; i < 12; i++) {
        expect(grid(form).querySelectorAll('tbody tr')).to.have.length(6);
        heights.add(form.shadowRoot!.querySelector('.calendar')!.getBoundingClientRect().height);
        await clickIn(form, 'button[aria-label="Next month"]');
      }
      expect([...heights]).to.have.length(1);
    });

    it('moves by day, week, week start and end, and month with the keys, keeping one tab stop', async () => {
      const { form } = await dayStep();
      const start = nextDate('Tuesday', 14);
      await pickDay(form, start); // a known open day two weeks ahead, the cursor on it
      form.shadowRoot!.querySelector<HTMLElement>('[role="grid"] [tabindex="0"]')!.focus();
      expect(focusedDate()).to.equal(start);
      const shift = (days: number) => {
        const d = new Date(`${start}T12:00:00Z`);
        d.setUTCDate(d.getUTCDate() + days);
        return d.toISOString().slice(0, 10);
      };
      await sendKeys({ press: 'ArrowRight' });
      await waitUntil(() => focusedDate() === shift(1), 'ArrowRight');
      await sendKeys({ press: 'ArrowDown' });
      await waitUntil(() => focusedDate() === shift(8), 'ArrowDown');
      await sendKeys({ press: 'ArrowUp' });
      await sendKeys({ press: 'ArrowLeft' });
      await waitUntil(() => focusedDate() === start, 'ArrowUp, ArrowLeft');
      await sendKeys({ press: 'Home' }); // en: weeks start on Sunday
      await waitUntil(() => focusedDate() === shift(-2), 'Home');
      await sendKeys({ press: 'End' });
      await waitUntil(() => focusedDate() === shift(4), 'End');
      await sendKeys({ press: 'PageDown' });
      await waitUntil(() => focusedDate()?.slice(5, 7) !== shift(4).slice(5, 7), 'PageDown');
      expect(grid(form).querySelectorAll('button[tabindex="0"]')).to.have.length(1);
      await sendKeys({ press: 'Enter' });
      // Enter chooses the focused day (its times show beside it), unless that day cannot be chosen.
      await waitUntil(() => form.shadowRoot!.querySelector('[aria-selected="true"] [tabindex="0"]') || form.shadowRoot!.querySelector('[aria-disabled="true"]:focus'), 'Enter');
      expect(stepOf(form)).to.equal('day');
    });

    it('starts the week on the day the language uses', async () => {
      expect(headers((await dayStep()).form)[0]).to.equal('Sun');
      bff.restore();
      expect(headers((await dayStep('', 'en-GB')).form)[0]).to.equal('Mon');
      bff.restore();
      const de = (await dayStep('', 'de')).form;
      expect(headers(de)[0]).to.match(/^Mo/);
      // Named by its step heading (and, the third widget on this page, by its number: "(3)").
      expect(form(de).getAttribute('aria-labelledby')).to.equal('step-heading instance');
    });

    it('has no axe violations', async () => {
      const { el } = await dayStep('1');
      await expect(el).to.be.accessible();
    });

  describe('on entering the day step', () => {
    /** The day chosen: the grid's selected cell. */
    const chosen = (form: ClinicBookingForm) => form.shadowRoot!.querySelector('[aria-selected="true"] [data-date]')?.getAttribute('data-date');
    /** The fixture clinic's next open day after `date` (it is open every day but Sunday). */
    const openDayAfter = (date: string) => {
      const d = new Date(`${date}T12:00:00Z`);
      do d.setUTCDate(d.getUTCDate() + 1);
      while (d.getUTCDay() === 0);
      return d.toISOString().slice(0, 10);
    };
    /** GET /availability/days's answer for a month: `open(date)` open starts on each of its days. */
    const daysAnswer = (month: string, open: (date: string) => number) => {
      const [year, number] = month.split('-').map(Number) as [number, number];
      const days = Array.from({ length: new Date(year, number, 0).getDate() }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`).map((date) => ({ date, open: open(date) }));
      return { status: 200, body: { success: true, best_known: true, note: '', data: { month, doctor_id: null, treatment_id: 1, time_zone: DEVICE_ZONE, days } } };
    };
    async function enter(): Promise<ClinicBookingForm> {
      const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
      const form = formOf(el);
      await clickIn(form, '[data-value="1"]');
      await clickIn(form, '[data-value=""]');
      return form;
    }

    it('chooses the first day that can be booked, on its month, with its times from the first render', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const held = deferred<FakeAnswer>();
      bff.on('GET /availability', () => held.promise);
      const form = await enter(); // the day step's first render
      const date = chosen(form)!;
      expect(date, 'a day is chosen').to.match(/^\d{4}-\d{2}-\d{2}$/);
      // The first that can be: in the month shown, every day before it there muted; the calendar's tab stop on it.
      const open = [...grid(form).querySelectorAll<HTMLButtonElement>('[data-date]')].filter((button) => !button.hasAttribute('aria-disabled'));
      expect(open[0]!.dataset.date).to.equal(date);
      expect(grid(form).querySelector('[tabindex="0"]')!.getAttribute('data-date')).to.equal(date);
      expect(date >= daysFromToday(0)).to.equal(true);
      // Its times are asked for and hold their place while they load: the periods' headers, the times inert.
      expect(bff.calls.filter((call) => call.path === '/availability').map((call) => call.query.date)).to.deep.equal([date]);
      const times = form.shadowRoot!.querySelector('.times')!;
      expect(times.getAttribute('aria-busy')).to.equal('true');
      expect(times.querySelectorAll('button[aria-expanded]')).to.have.length(3);
      expect(times.querySelectorAll('.slots[inert] [data-time]').length).to.be.greaterThan(0);
      held.resolve({ status: 200, body: availabilityAnswer([]) });
      await timesLoaded(form);
      expect(times.querySelectorAll('.slots:not([inert]) [data-time]:not([disabled])').length).to.be.greaterThan(0);
    });

    it("moves on to the next bookable day when the BFF's day counts come and say the chosen one is full, leaving focus where it is", async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const counted = deferred<void>();
      let full = '';
      bff.on('GET /availability/days', async (call) => {
        await counted.promise;
        return daysAnswer(call.query.month!, (date) => (date === full ? 0 : 12));
      });
      const form = await enter();
      full = chosen(form)!;
      const back = buttonNamed(form, 'Back');
      back.focus();
      counted.resolve();
      await waitUntil(() => chosen(form) !== full, 'the full day stayed chosen');
      expect(chosen(form)).to.equal(openDayAfter(full));
      expect(deepActiveElement() === back, 'focus stayed on "Back"').to.equal(true);
      if (day(form, full)) expect(reasonOf(form, full)).to.equal('No free time');
      await timesLoaded(form);
      expect(bff.calls.filter((call) => call.path === '/availability').at(-1)!.query.date).to.equal(openDayAfter(full));
    });

    it('keeps a day the patient chose, even when the counts then say it is full', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      const counted = deferred<void>();
      const date = nextDate('Tuesday', 3);
      bff.on('GET /availability/days', async (call) => {
        await counted.promise;
        return daysAnswer(call.query.month!, (d) => (d === date ? 0 : 12));
      });
      const form = await enter();
      await pickDay(form, date);
      counted.resolve();
      await waitUntil(() => reasonOf(form, date) === 'No free time', 'the count never came');
      expect(chosen(form)).to.equal(date);
    });
  });
  });
});

const form = (f: ClinicBookingForm) => f.shadowRoot!.querySelector('form')!;
