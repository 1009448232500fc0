import { expect, html } from '@open-wc/testing';
import { DAY_NAMES } from '../../contract/rules/days.js';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import { installFakeBff, type FakeAnswer, type FakeBff } from './support/fake-bff.js';
import { availabilityAnswer, clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { clickIn, daysFromToday, deferred, fixtureReady, formOf, markupAll, pickDay, timesLoaded } from './support/widget.js';

/**
 * The day step's layout as the browser computes it, with a full day of times (08:00 to 20:00, a
 * 30-minute check-up every 15 minutes: 47 starts): every time reached without a box that scrolls and
 * none cut, at a tablet's and a desktop's width; the step within a phone's screen or so; and nothing
 * moving when the times come, another day is chosen or the month changes. Only standard DOM and
 * CSSOM, so that it runs in any engine; the layout-shift entries only where the browser has them.
 */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  const FULL_DAY = { open: '08:00', close: '20:00', is_closed: false };
  const STARTS = 47;

  /** The day step in a container `width` px wide, every day open from 08:00 to 20:00, with `date` chosen and its times loaded. */
  async function dayStep(width: number, date: string): Promise<ClinicBookingForm> {
    bff = installFakeBff(clinicFixtures({ site: { opening_hours: Object.fromEntries(DAY_NAMES.map((day) => [day, FULL_DAY])) } }), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" style="display:block;width:${width}px"></clinic-booking>`);
    const form = formOf(el);
    await clickIn(form, '[data-value="1"]'); // Check-up, 30 minutes
    await clickIn(form, '[data-value=""]');
    await pickDay(form, date);
    await timesLoaded(form);
    return form;
  }

  const $ = (form: ClinicBookingForm, selector: string) => form.shadowRoot!.querySelector<HTMLElement>(selector)!;
  const box = (form: ClinicBookingForm, selector: string) => $(form, selector).getBoundingClientRect().toJSON() as DOMRect;
  const times = (form: ClinicBookingForm) => [...form.shadowRoot!.querySelectorAll<HTMLButtonElement>('.times [data-time]')];

  /** The part of an element's box that no ancestor (across shadow roots) clips away. */
  function visibleBox(el: Element) {
    let { left, top, right, bottom } = el.getBoundingClientRect();
    for (let node = el.parentElement ?? (el.getRootNode() as ShadowRoot).host; node; node = node.parentElement ?? (node.getRootNode() as ShadowRoot).host) {
      const style = getComputedStyle(node);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const clip = node.getBoundingClientRect();
      [left, top, right, bottom] = [Math.max(left, clip.left), Math.max(top, clip.top), Math.min(right, clip.right), Math.min(bottom, clip.bottom)];
    }
    return { left, top, right, bottom };
  }
  const inside = (inner: DOMRect, outer: ReturnType<typeof visibleBox>) =>
    inner.width > 0 && inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 && inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;

  /** The elements of the form that scroll their content: overflow auto or scroll, with more than they show. */
  const scrollers = (form: ClinicBookingForm) =>
    [...form.shadowRoot!.querySelectorAll('*')].filter((node) => {
      const style = getComputedStyle(node);
      return /auto|scroll/.test(`${style.overflowX} ${style.overflowY}`) && (node.scrollHeight > node.clientHeight || node.scrollWidth > node.clientWidth);
    });

  /** A task after the next frame: that frame is painted, and its layout shifts reported. */
  const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

  /** The layout shifts from now on, where the browser reports them (Chromium); undefined elsewhere. */
  function layoutShifts(): () => Promise<number | undefined> {
    if (!PerformanceObserver.supportedEntryTypes?.includes('layout-shift')) return async () => undefined;
    const entries: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
    observer.observe({ type: 'layout-shift' });
    return async () => {
      await painted();
      entries.push(...observer.takeRecords());
      observer.disconnect();
      return entries.reduce((sum, entry) => sum + (entry as PerformanceEntry & { value: number }).value, 0);
    };
  }

  describe('on the day step, with a full day of times', () => {
    for (const width of [768, 1280]) {
      it(`shows every time in a container of ${width} px, no box scrolling and no time cut`, async () => {
        const form = await dayStep(width, daysFromToday(2));
        const seen: string[] = [];
        for (const period of [0, 1, 2]) {
          await clickIn(form, `#period-${period}`);
          expect(markupAll(scrollers(form)), 'a box that scrolls').to.deep.equal([]);
          const pane = visibleBox($(form, '.times'));
          const card = visibleBox($(form, 'form'));
          const cut = times(form).filter((button) => !inside(button.getBoundingClientRect(), pane) || !inside(button.getBoundingClientRect(), card));
          expect(markupAll(cut), 'times cut').to.deep.equal([]);
          seen.push(...times(form).map((button) => button.dataset.time!));
        }
        expect(new Set(seen).size).to.equal(STARTS);
      });
    }

    it('keeps the step under 900 px tall in a container of 390 px as it opens on a full day, and a row of times more at most', async () => {
      const form = await dayStep(390, daysFromToday(2));
      // From the step's heading to the card's end: the site's subtitle above every step is its own.
      const height = () => $(form, 'form').getBoundingClientRect().bottom - $(form, '#step-heading').getBoundingClientRect().top;
      expect($(form, '#period-0').getAttribute('aria-expanded'), 'the morning open').to.equal('true');
      const opened = height();
      expect(opened).to.be.below(900);
      // The afternoon's 20 times take a row more than the morning's 16, four to a row; nothing else grows.
      await clickIn(form, '#period-1');
      const row = times(form)[0]!.getBoundingClientRect().height;
      expect(height()).to.be.at.most(opened + row + 4);
      expect(row, 'still a touch size').to.be.at.least(44);
    });

    for (const width of [390, 768, 1280]) {
      it(`moves neither the calendar nor the times when another day is chosen or the month changes (${width} px)`, async () => {
        const first = daysFromToday(2);
        const next = daysFromToday(3).slice(0, 7) === first.slice(0, 7) ? daysFromToday(3) : daysFromToday(1);
        const form = await dayStep(width, first);
        const calendar = box(form, '.calendar');
        const pane = box(form, '.times');
        const held = deferred<FakeAnswer>();
        bff.on('GET /availability', () => held.promise);
        const shifts = layoutShifts();
        await clickIn(form, `[data-date="${next}"]`);
        // While its times load, the pane holds the same box: the headers and the times, inert.
        expect($(form, '.times').getAttribute('aria-busy')).to.equal('true');
        expect(box(form, '.calendar')).to.deep.equal(calendar);
        expect(box(form, '.times')).to.deep.equal(pane);
        await painted();
        held.resolve({ status: 200, body: availabilityAnswer([]) });
        await timesLoaded(form);
        expect(box(form, '.calendar')).to.deep.equal(calendar);
        expect(box(form, '.times')).to.deep.equal(pane);
        const score = await shifts();
        if (score !== undefined) expect(score, 'layout shift').to.equal(0);
        await clickIn(form, '.month > button:last-of-type');
        expect(box(form, '.calendar')).to.deep.equal(calendar);
        expect(box(form, '.times').top).to.equal(pane.top);
      });
    }
  });
});
