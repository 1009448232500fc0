import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { availabilityAnswer, clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { clickIn, deepActiveElement, fixtureReady, formOf, nextDate, pickDay, timesLoaded } from './support/widget.js';

/**
 * Right to left (Arabic), the arrows follow the layout: the next day and the next time sit to the
 * left, so ArrowLeft goes forward and ArrowRight back. Up and Down, Home and End do not turn.
 */
describe('<clinic-booking> in Arabic (dir=rtl)', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  const $ = (form: ClinicBookingForm, selector: string) => form.shadowRoot!.querySelector<HTMLElement>(selector)!;
  const left = (form: ClinicBookingForm, selector: string) => $(form, selector).getBoundingClientRect().left;

  /** The day step in Arabic in a container `width` px wide, with a Tuesday two weeks ahead chosen (its times beside it) and the cursor on it. */
  async function dayStep(width = 800): Promise<{ form: ClinicBookingForm; start: string; shift: (days: number) => string }> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on('GET /availability', () => ({ status: 200, body: availabilityAnswer([{ time: '08:15', status: 'taken' }]) }));
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" lang="ar" style="display:block;width:${width}px"></clinic-booking>`);
    const form = formOf(el);
    await clickIn(form, '[data-value=""]');
    await clickIn(form, '[data-value=""]');
    const start = nextDate('Tuesday', 14);
    await pickDay(form, start);
    await timesLoaded(form);
    expect(getComputedStyle($(form, '[role="grid"]')).direction).to.equal('rtl');
    const shift = (days: number) => {
      const d = new Date(`${start}T12:00:00Z`);
      d.setUTCDate(d.getUTCDate() + days);
      return d.toISOString().slice(0, 10);
    };
    return { form, start, shift };
  }

  it('moves the calendar to the next day with ArrowLeft and the previous with ArrowRight, as it is laid out', async () => {
    const { form, start, shift } = await dayStep();
    // Tuesday and Wednesday share a week in Arabic's calendar (which starts on Saturday): the next day is to the left.
    expect(left(form, `[data-date="${shift(1)}"]`)).to.be.below(left(form, `[data-date="${start}"]`));
    $(form, '[role="grid"] [tabindex="0"]').focus();
    const focusedDate = () => deepActiveElement()?.getAttribute('data-date');
    expect(focusedDate()).to.equal(start);
    await sendKeys({ press: 'ArrowLeft' });
    await waitUntil(() => focusedDate() === shift(1), 'ArrowLeft goes to the next day');
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'ArrowRight' });
    await waitUntil(() => focusedDate() === shift(-1), 'ArrowRight goes to the previous day');
    await sendKeys({ press: 'ArrowDown' });
    await waitUntil(() => focusedDate() === shift(6), 'ArrowDown still goes a week on');
  });

  it('moves among the times to the next with ArrowLeft and the previous with ArrowRight', async () => {
    // Stacked under the calendar, where each period's times run in a row across the width.
    const { form } = await dayStep(390);
    expect(left(form, '.times [data-time="08:30"]')).to.be.below(left(form, '.times [data-time="08:00"]'));
    $(form, '.times [tabindex="0"]').focus();
    const focused = () => deepActiveElement()?.getAttribute('data-time');
    await sendKeys({ press: 'ArrowLeft' });
    await waitUntil(() => focused() === '08:30', 'ArrowLeft goes to the next free time (08:15 is taken)');
    await sendKeys({ press: 'ArrowLeft' });
    await waitUntil(() => focused() === '08:45', 'ArrowLeft again');
    await sendKeys({ press: 'ArrowRight' });
    await waitUntil(() => focused() === '08:30', 'ArrowRight goes back');
    await sendKeys({ press: 'ArrowDown' });
    await waitUntil(() => focused() === '08:45', 'ArrowDown still goes on');
  });
});
