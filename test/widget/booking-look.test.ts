import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { availabilityAnswer, clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { clickIn, deepActiveElement, fixtureReady, formOf, nextDate, pickDay, pickTime, stepOf, timesLoaded } from './support/widget.js';

/**
 * How the booking steps look: what is chosen is filled and marked, muted days
 * apart from bookable ones, the calendar and the day's times side by side or
 * stacked by the container's width, times on one line each, the summary of
 * the choices so far, and the calendar's use of the BFF's day counts.
 */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  async function render(width: number, lang = 'en'): Promise<{ el: ClinicBooking; form: ClinicBookingForm }> {
    bff ??= installFakeBff(clinicFixtures(), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" lang=${lang} style="display:block;width:${width}px"></clinic-booking>`);
    return { el, form: formOf(el) };
  }

  /** A fresh fake BFF for the next render (after restoring the last one). */
  function freshBff(): FakeBff {
    bff?.restore();
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    return bff;
  }

  const $ = <T extends Element = HTMLElement>(form: ClinicBookingForm, selector: string) => form.shadowRoot!.querySelector<T>(selector)!;
  const $$ = <T extends Element = HTMLElement>(form: ClinicBookingForm, selector: string) => [...form.shadowRoot!.querySelectorAll<T>(selector)];
  /** The look that tells chosen from not chosen: the fill, the text colour, and the check mark (the ::after's opacity). */
  const look = (el: Element) => {
    const style = getComputedStyle(el);
    const after = getComputedStyle(el, '::after');
    return { background: style.backgroundColor, color: style.color, mark: after.content !== 'none' && after.opacity === '1' ? '1' : '0' };
  };

  /** Walks to the day step (Check-up, any dentist) and chooses a Tuesday, so its times show. */
  async function withTimes(form: ClinicBookingForm): Promise<string> {
    await clickIn(form, '[data-value="1"]');
    await clickIn(form, '[data-value=""]');
    const date = nextDate('Tuesday');
    await pickDay(form, date);
    await timesLoaded(form);
    return date;
  }

  describe('what is chosen', () => {
    it('fills the chosen treatment and dentist ("Not sure yet" and "Any dentist" too) and marks them, not by colour alone', async () => {
      freshBff();
      const { form } = await render(800);
      await clickIn(form, '[data-value="2"]');
      await clickIn(form, '[data-value=""]'); // Any dentist
      await clickIn(form, 'form > .row > button[type="button"]'); // back to the dentist step
      const chosen = look($(form, '.choices [data-value=""]'));
      const other = look($(form, '.choices [data-value="1"]'));
      expect(chosen.background).not.to.equal(other.background);
      expect(chosen.color).not.to.equal(other.color);
      expect([chosen.mark, other.mark]).to.deep.equal(['1', '0']);
      await clickIn(form, 'form > .row > button[type="button"]'); // the treatment step
      expect(look($(form, '.choices [data-value="2"]'))).to.deep.equal(chosen);
      expect(look($(form, '.choices [data-value=""]'))).to.deep.equal(other);
    });

    it('shows "Not sure yet" and "Any dentist" as chosen only once the patient has chosen them', async () => {
      freshBff();
      const { form } = await render(800);
      const back = 'form > .row > button[type="button"]';
      const notSure = () => $(form, '.choices [data-value=""]');
      // The empty draft equals them, yet nobody chose them: they look like every other card.
      const before = look(notSure());
      expect(before).to.deep.equal(look($(form, '.choices [data-value="1"]')));
      expect(notSure().getAttribute('aria-pressed')).to.equal('false');
      await clickIn(form, '[data-value=""]'); // Not sure yet
      const anyBefore = look(notSure());
      expect(anyBefore).to.deep.equal(before);
      await clickIn(form, '[data-value=""]'); // Any dentist
      await clickIn(form, back);
      const anyAfter = look(notSure());
      expect(anyAfter).not.to.deep.equal(anyBefore);
      expect(anyAfter.mark).to.equal('1');
      await clickIn(form, back);
      expect(look(notSure())).not.to.deep.equal(before);
      expect(notSure().getAttribute('aria-pressed')).to.equal('true');
    });

    it('fills and marks the chosen day and time', async () => {
      freshBff();
      const { form } = await render(800);
      const date = await withTimes(form);
      const day = getComputedStyle($(form, `[data-date="${date}"]`));
      const open = getComputedStyle($(form, '[aria-selected="false"] .day.open'));
      expect(day.backgroundColor).not.to.equal(open.backgroundColor);
      // Marked by an underline besides the fill: not by colour alone.
      expect([day.textDecorationLine, open.textDecorationLine]).to.deep.equal(['underline', 'none']);
      await pickTime(form, '10:00');
      await clickIn(form, 'form > .row > button[type="button"]');
      await waitUntil(() => $(form, '.times [data-time="10:00"]'), 'no times shown');
      const time = look($(form, '.times [data-time="10:00"]'));
      const other = look($(form, '.times [data-time="10:15"]'));
      expect(time.background).not.to.equal(other.background);
      expect([time.mark, other.mark]).to.deep.equal(['1', '0']);
    });

    it('mutes days that cannot be chosen and makes bookable days stand out, no strike-through', async () => {
      freshBff();
      const { form } = await render(800);
      const tuesday = await withTimes(form);
      // The Sunday after the chosen Tuesday: on the calendar shown, or a month on.
      const sunday = new Date(Date.parse(`${tuesday}T12:00:00Z`) + 5 * 86_400_000).toISOString().slice(0, 10);
      for (let i = 0; i < 2 && !$(form, `[data-date="${sunday}"]`); i++) await clickIn(form, 'button[aria-label="Next month"]');
      const muted = getComputedStyle($(form, `[data-date="${sunday}"]`));
      const bookable = getComputedStyle($(form, '.day.open:not([aria-disabled])'));
      expect($(form, `[data-date="${sunday}"]`).getAttribute('aria-disabled')).to.equal('true');
      expect(muted.color).not.to.equal(bookable.color);
      expect(muted.backgroundColor).not.to.equal(bookable.backgroundColor);
      expect(Number(bookable.fontWeight)).to.be.greaterThan(Number(muted.fontWeight));
      expect(muted.textDecorationLine).to.equal('none');
    });
  });

  describe('the calendar and the times', () => {
    const boxes = (form: ClinicBookingForm) => [$(form, '.calendar').getBoundingClientRect(), $(form, '.times').getBoundingClientRect()] as const;

    it('stand side by side in a container of 1280 px', async () => {
      freshBff();
      const { form } = await render(1280);
      await withTimes(form);
      const [calendar, times] = boxes(form);
      expect(times.left).to.be.at.least(calendar.right);
      expect(times.top).to.be.below(calendar.bottom);
    });

    it('stack in a container of 390 px, whatever the viewport', async () => {
      freshBff();
      const { el, form } = await render(390);
      await withTimes(form);
      const [calendar, times] = boxes(form);
      expect(times.top).to.be.at.least(calendar.bottom);
      expect(window.innerWidth, 'the viewport is wide: the container decides').to.be.greaterThan(720);
      await expect(el).to.be.accessible();
    });

    for (const lang of ['en', 'de']) {
      it(`keeps every time on one line at 320 px (${lang})`, async () => {
        freshBff();
        const { el, form } = await render(320, lang);
        await withTimes(form);
        // One period shows at a time: each opened in turn with its header.
        let count = 0;
        for (const period of [0, 1, 2]) {
          await clickIn(form, `#period-${period}`);
          const buttons = $$<HTMLButtonElement>(form, '.times [data-time]');
          count += buttons.length;
          for (const button of buttons) {
            const range = document.createRange();
            range.selectNodeContents(button);
            const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
            expect(lines.size, `${button.textContent} on one line`).to.equal(1);
            expect(button.scrollWidth, `${button.textContent} fits its button`).to.be.at.most(button.clientWidth);
          }
          const heights = new Set(buttons.map((button) => button.getBoundingClientRect().height));
          expect(heights.size, 'every time button as tall as the others').to.equal(1);
        }
        expect(count).to.be.greaterThan(30);
        await clickIn(form, '#period-0');
        if (lang === 'en') expect($(form, '.times [data-time]').textContent!.trim()).to.equal('8:00 AM');
        await expect(el).to.be.accessible();
      });
    }

    it('groups the times into morning, afternoon and evening, each shown under its header', async () => {
      freshBff();
      const { form } = await render(800);
      await withTimes(form);
      const groups = [];
      for (const period of [0, 1, 2]) {
        await clickIn(form, `#period-${period}`);
        const group = $$(form, '.times [role="group"]');
        expect(group, 'one period shown at a time').to.have.length(1);
        groups.push([
          form.shadowRoot!.getElementById(group[0]!.getAttribute('aria-labelledby')!)!.textContent!.replace(/\s+/g, ' ').trim(),
          group[0]!.querySelector('[data-time]')!.getAttribute('data-time'),
        ]);
      }
      expect(groups).to.deep.equal([
        ['Morning 16 free', '08:00'],
        ['Afternoon 20 free', '12:00'],
        ['Evening 3 free', '17:00'],
      ]);
    });

    it("are one tab stop; arrows move to the open period's next and previous free time, Home and End to its first and last", async () => {
      bff = freshBff();
      bff.on('GET /availability', () => ({ status: 200, body: availabilityAnswer([{ time: '08:15', status: 'taken' }]) }));
      const { form } = await render(800);
      await withTimes(form);
      expect($$(form, '.times [data-time][tabindex="0"]').map((b) => b.dataset.time)).to.deep.equal(['08:00']);
      $(form, '.times [tabindex="0"]').focus();
      const focused = () => deepActiveElement()?.getAttribute('data-time');
      await sendKeys({ press: 'ArrowRight' });
      await waitUntil(() => focused() === '08:30', 'ArrowRight skips the taken 08:15');
      await sendKeys({ press: 'ArrowDown' });
      await waitUntil(() => focused() === '08:45', 'ArrowDown');
      await sendKeys({ press: 'ArrowLeft' });
      await waitUntil(() => focused() === '08:30', 'ArrowLeft');
      await sendKeys({ press: 'End' });
      await waitUntil(() => focused() === '11:45', "End: the morning's last");
      await sendKeys({ press: 'Home' });
      await waitUntil(() => focused() === '08:00', 'Home');
      await sendKeys({ press: 'ArrowUp' });
      expect(focused(), 'ArrowUp stays on the first').to.equal('08:00');
      expect($$(form, '.times [tabindex="0"]')).to.have.length(1);
      expect(stepOf(form), 'arrows only move; they do not choose').to.equal('day');
      await sendKeys({ press: 'ArrowRight' });
      await waitUntil(() => focused() === '08:30', 'ArrowRight');
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => stepOf(form) === 'details', 'Enter chooses');
      expect(form.shadowRoot!.querySelector('[part="booking-summary"]')!.textContent).to.contain('8:30 AM');
    });
  });

  describe('the summary', () => {
    const summary = (form: ClinicBookingForm) =>
      $$(form, '[part="booking-summary"] dt').map((dt) => [dt.textContent!.trim(), dt.nextElementSibling!.textContent!.replace(/\s+/g, ' ').trim()]);

    it('shows the choices so far from the second step on: the treatment with its length and fee, the dentist, the day and the time', async () => {
      freshBff();
      const { el, form } = await render(800);
      expect($(form, '[part="booking-summary"]'), 'none on the first step').to.equal(null);
      await clickIn(form, '[data-value="2"]');
      expect(summary(form)).to.deep.equal([['Treatment', 'Whitening (90 min · £350.50)']]);
      await clickIn(form, '[data-value="1"]');
      // The day step opens with the first bookable day chosen; the day being chosen shows in the calendar, not above it.
      expect($(form, '[aria-selected="true"] [data-date]'), 'a day chosen').not.to.equal(null);
      const before = [
        ['Treatment', 'Whitening (90 min · £350.50)'],
        ['Dentist', 'Dr Ann Smith'],
      ];
      expect(summary(form)).to.deep.equal(before);
      const date = nextDate('Tuesday');
      await pickDay(form, date);
      expect(summary(form)).to.deep.equal(before);
      await pickTime(form, '10:00');
      const longDate = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
      expect(summary(form)).to.deep.equal([...before, ['Date', longDate], ['Time', '10:00 AM']]);
      await expect(el).to.be.accessible();
    });

    it('shows the same choices on the review', async () => {
      freshBff();
      const { form } = await render(800);
      await clickIn(form, '[data-value="2"]');
      await clickIn(form, '[data-value=""]');
      await pickDay(form, nextDate('Tuesday'));
      await pickTime(form, '10:00');
      const rows = () => $$(form, 'dl dt').map((dt) => [dt.textContent, dt.nextElementSibling!.textContent!.replace(/\s+/g, ' ').trim()]);
      const onDetails = rows();
      for (const [id, value] of [['patient_name', 'Jane Patient'], ['patient_phone', '+44 20 7946 0958']]) {
        const input = $<HTMLInputElement>(form, `#${id}`);
        input.value = value!;
        input.dispatchEvent(new Event('input'));
      }
      $(form, 'form').closest('form')!.requestSubmit();
      await waitUntil(() => stepOf(form) === 'review', 'no review');
      expect(rows().slice(0, 4)).to.deep.equal(onDetails);
    });

    /**
     * The summary's look on a step: the block's place and colours, and each row's label and value
     * with where they stand. From one step to the next the rows already there stay where they were.
     */
    function measure(form: ClinicBookingForm) {
      const list = $(form, '[part="booking-summary"]');
      const style = getComputedStyle(list);
      const box = list.getBoundingClientRect();
      const block = { left: box.left, width: box.width, background: style.backgroundColor, padding: style.padding, display: style.display };
      const rows = $$(form, '[part="booking-summary"] dt').map((dt) => {
        const dd = dt.nextElementSibling!;
        const [label, value] = [dt.getBoundingClientRect(), dd.getBoundingClientRect()];
        return {
          label: dt.textContent!.trim(),
          at: [label.left - box.left, label.width, value.left - box.left, value.width, Math.round(value.top - label.top)],
          look: [getComputedStyle(dt).fontSize, getComputedStyle(dt).color, getComputedStyle(dd).fontSize],
        };
      });
      return { block, rows };
    }

    for (const width of [1280, 390]) {
      it(`keeps one layout from the second step to the review at ${width} px: the same block, its rows in place, only more of them`, async () => {
        freshBff();
        const { el, form } = await render(width, 'de');
        await clickIn(form, '[data-value="2"]');
        const steps = [measure(form)];
        await clickIn(form, '[data-value="1"]');
        await pickDay(form, nextDate('Tuesday'));
        await pickTime(form, '10:00');
        steps.push(measure(form));
        for (const [id, value] of [['patient_name', 'Jane Patient'], ['patient_phone', '+44 20 7946 0958'], ['note', 'Nervous']]) {
          const input = $<HTMLInputElement>(form, `#${id}`);
          input.value = value!;
          input.dispatchEvent(new Event('input'));
        }
        $(form, 'form').closest('form')!.requestSubmit();
        await waitUntil(() => stepOf(form) === 'review', 'no review');
        steps.push(measure(form));
        expect(steps.map((step) => step.rows.map((row) => row.label))).to.deep.equal([
          ['Behandlung'],
          ['Behandlung', 'Zahnarzt/Zahnärztin', 'Datum', 'Uhrzeit'],
          ['Behandlung', 'Zahnarzt/Zahnärztin', 'Datum', 'Uhrzeit', 'Vollständiger Name', 'Telefonnummer', 'Nachricht an die Praxis'],
        ]);
        for (const [n, step] of steps.entries()) {
          expect(step.block, `the block on step ${n + 2}`).to.deep.equal(steps[0]!.block);
          // Each row as on the step before; the labels' column as wide whatever the labels.
          expect(step.rows.slice(0, steps[Math.max(n - 1, 0)]!.rows.length), `the rows on step ${n + 2}`).to.deep.equal(steps[Math.max(n - 1, 0)]!.rows);
          expect(new Set(step.rows.map((row) => JSON.stringify([row.at[0], row.at[1], row.at[2], row.look]))).size, 'one column, one look').to.equal(1);
        }
        const [label, , value] = steps[0]!.rows[0]!.at as number[];
        if (width === 1280) expect(value!, 'the value beside its label').to.be.greaterThan(label! + 100);
        else expect(value!, 'the value under its label in a narrow container').to.equal(label);
        await expect(el).to.be.accessible();
      });
    }
  });

  describe('the details', () => {
    for (const width of [1280, 390, 320]) {
      it(`gives every field one width in one column at ${width} px, the e-mail and the consent too, no wider than 32rem`, async () => {
        bff?.restore();
        bff = installFakeBff(clinicFixtures({ emailOffered: true }), uniqueApiBase());
        const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" privacy-url="https://example.org/privacy"
          style="display:block;width:${width}px"></clinic-booking>`);
        const form = formOf(el);
        await clickIn(form, '[data-value="1"]');
        await clickIn(form, '[data-value=""]');
        await pickDay(form, nextDate('Tuesday'));
        await pickTime(form, '10:00');
        await clickIn(form, '#email_consent');
        const fields = $$(form, '.fields > .field');
        expect(fields.map((field) => field.querySelector('input, textarea')!.id)).to.deep.equal([
          'patient_name', 'patient_phone', 'address', 'note', 'email_consent', 'patient_email', 'consent',
        ]);
        const boxes = fields.map((field) => field.getBoundingClientRect());
        expect(new Set(boxes.map((box) => `${box.left} ${box.width}`)).size, 'one left edge, one width').to.equal(1);
        for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.top, 'each under the one before').to.be.at.least(boxes[i - 1]!.bottom);
        const controls = ['patient_name', 'patient_phone', 'address', 'note', 'patient_email'].map((id) => $(form, `#${id}`).getBoundingClientRect().width);
        expect(new Set(controls).size, 'every text field as wide as the others').to.equal(1);
        const card = $(form, 'form');
        const inner = card.clientWidth - parseFloat(getComputedStyle(card).paddingLeft) - parseFloat(getComputedStyle(card).paddingRight);
        expect(boxes[0]!.width, "the card's width, up to 32rem").to.be.closeTo(Math.min(32 * 16, inner), 0.5);
        await expect(el).to.be.accessible();
      });
    }
  });

  describe('with the BFF\'s day counts (GET /availability/days)', () => {
    it('asks for the shown month, treatment and dentist, and mutes a day with no open start as "No free time"', async () => {
      bff = freshBff();
      const full = nextDate('Tuesday', 1);
      bff.on('GET /availability/days', (call) => {
        const [year, month] = call.query.month!.split('-').map(Number) as [number, number];
        const days = Array.from({ length: new Date(year, month, 0).getDate() }, (_, i) => {
          const date = `${call.query.month}-${String(i + 1).padStart(2, '0')}`;
          return { date, open: date === full ? 0 : 12 };
        });
        return { status: 200, body: { success: true, best_known: true, note: '', data: { month: call.query.month, doctor_id: 1, treatment_id: 1, time_zone: 'UTC', days } } };
      });
      const { el, form } = await render(800);
      await clickIn(form, '[data-value="1"]');
      await clickIn(form, '[data-value="1"]');
      const asked = bff.calls.find((call) => call.path === '/availability/days')!;
      expect(Object.keys(asked.query).sort()).to.deep.equal(['doctor_id', 'month', 'treatment_id']);
      expect(asked.query).to.include({ doctor_id: '1', treatment_id: '1' });
      expect(asked.query.month).to.match(/^\d{4}-\d{2}$/);
      for (let i = 0; i < 2 && !$(form, `[data-date="${full}"]`); i++) await clickIn(form, 'button[aria-label="Next month"]');
      await waitUntil(() => $(form, `[data-date="${full}"]`)?.getAttribute('aria-disabled') === 'true', 'the full day is not muted');
      const day = $(form, `[data-date="${full}"]`);
      expect(form.shadowRoot!.getElementById(day.getAttribute('aria-describedby')!)!.textContent).to.equal('No free time');
      expect(day.classList.contains('open')).to.equal(false);
      await expect(el).to.be.accessible();
    });

    it('falls back to the opening hours when the BFF has no such route (404)', async () => {
      freshBff(); // the fake answers 404 for paths it has no fixture for
      const { form } = await render(800);
      await clickIn(form, '[data-value="1"]');
      await clickIn(form, '[data-value=""]');
      await waitUntil(() => bff.calls.some((call) => call.path === '/availability/days'), 'the days were never asked for');
      const tuesday = nextDate('Tuesday', 1);
      for (let i = 0; i < 2 && !$(form, `[data-date="${tuesday}"]`); i++) await clickIn(form, 'button[aria-label="Next month"]');
      expect($(form, `[data-date="${tuesday}"]`).getAttribute('aria-disabled')).to.equal(null);
      await pickDay(form, tuesday);
      await waitUntil(() => $(form, '.times [data-time="08:00"]'), 'no times shown');
    });
  });
});
