import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { installFakeBff, type FakeAnswer, type FakeBff } from './support/fake-bff.js';
import { availabilityAnswer, clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { loaded, manageOf, press, STATUS, statusAnswer } from './support/manage.js';
import { focusObscuredFailures, targets, targetSizeFailures } from './support/wcag.js';
import { buttonNamed, clickIn, control, deferred, formOf, nextDate, pickDay, refused, stepOf, typeInto } from './support/widget.js';

/**
 * WCAG 2.2 AA's target size (2.5.8) and focus not obscured (2.4.11), in every state a patient
 * meets from the first look to the manage view: the content loading, each step, the day's times
 * loading, the details with their errors shown, the booking on its way, a time taken (the failure
 * and the nearest times), the confirmation, and the manage view with its picker of other times.
 * Inline, in a wide and a 320 px container, and in the dialog of mode="button", as wide as the
 * viewport allows and 360 px wide (its part sized by the page, as a narrow phone would: the same
 * header and scrolling form, with no viewport command that only some browsers' launchers have).
 * Each state is measured with DOM APIs alone (support/wcag.ts), so every engine runs it alike.
 */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  const LAYOUTS = [
    { mode: 'inline', width: 0, name: 'inline, as wide as the page' },
    { mode: 'inline', width: 320, name: 'inline, 320 px' },
    { mode: 'button', width: 0, name: 'in the dialog' },
    { mode: 'button', width: 360, name: 'in a 360 px dialog' },
  ] as const;

  for (const layout of LAYOUTS) {
    describe(`${layout.name}`, () => {
      it('keeps every target at least 24 px (or spaced) and every focused element in sight, in every state', async function () {
        this.timeout(120_000);
        bff = installFakeBff(clinicFixtures({ emailOffered: true }), uniqueApiBase());
        const failures: string[] = [];
        const measured: string[] = [];

        /** Holds the next answer to `route` until released with `answer`. */
        function hold(route: string): (answer: FakeAnswer) => void {
          const held = deferred<FakeAnswer>();
          bff.on(route, () => held.promise);
          return held.resolve;
        }

        const content = hold('GET /content');
        const sizing = layout.mode === 'inline' && layout.width ? `display:block;width:${layout.width}px` : 'display:block';
        const wrapper = await fixture<HTMLElement>(html`<div>
          <clinic-booking api-base=${bff.apiBase} sections="booking" mode=${layout.mode} privacy-url="https://example.org/privacy"
            style=${sizing}></clinic-booking>
        </div>`);
        if (layout.mode === 'button' && layout.width) {
          const narrow = document.createElement('style');
          narrow.textContent = `clinic-booking::part(dialog) { width: ${layout.width}px; }`;
          wrapper.append(narrow);
        }
        const el = wrapper.querySelector('clinic-booking')!;

        /** Measures the state shown: both checks over the whole widget, each failure named with its state. */
        async function state(name: string, expectTargets = true): Promise<void> {
          await el.updateComplete;
          const form = el.shadowRoot!.querySelector('clinic-booking-form');
          await form?.updateComplete;
          const found = targets(el.shadowRoot!).length;
          if (expectTargets) expect(found, `${name}: no targets found to measure`).to.be.greaterThan(0);
          failures.push(...targetSizeFailures(el.shadowRoot!).map((failure) => `${name}: ${failure}`));
          failures.push(...(await focusObscuredFailures(el.shadowRoot!)).map((failure) => `${name}: ${failure}`));
          measured.push(name);
        }

        await state('the content loading', false);
        content({ status: 200, body: clinicFixtures({ emailOffered: true })['/content'] });
        await waitUntil(() => el.shadowRoot!.querySelector('clinic-booking-form')?.shadowRoot?.querySelector('form'), 'the form never showed');
        const form = formOf(el);
        await form.updateComplete;
        if (layout.mode === 'button') {
          el.shadowRoot!.querySelector<HTMLButtonElement>('[part="open-button"]')!.click();
          await waitUntil(() => el.shadowRoot!.querySelector('dialog')!.open, 'the dialog did not open');
        }

        await state('the treatment step');
        await clickIn(form, '[data-value="1"]');
        await state('the dentist step');
        await clickIn(form, '[data-value=""]');
        await state('the day step, no day chosen');

        const times = hold('GET /availability');
        await pickDay(form, nextDate('Tuesday'));
        await state('the day step, its times loading');
        times({ status: 200, body: availabilityAnswer([{ time: '09:00', status: 'taken' }]) });
        await waitUntil(() => form.shadowRoot!.querySelector('.times [data-time="10:00"]'), 'no times shown');
        await state('the day step, its times shown');

        await clickIn(form, '.times [data-time="10:00"]');
        await control(form, 'email_consent').click();
        await form.updateComplete;
        await state('the details');
        form.shadowRoot!.querySelector('form')!.requestSubmit();
        await waitUntil(() => form.shadowRoot!.querySelector('.error'), 'no errors shown');
        await state('the details, their errors shown');

        await typeInto(form, 'patient_name', 'Jane Patient');
        await typeInto(form, 'patient_phone', '+44 20 7946 0958');
        await typeInto(form, 'patient_email', 'jane@example.org');
        if (!control(form, 'consent').checked) await control(form, 'consent').click();
        form.shadowRoot!.querySelector('form')!.requestSubmit();
        await waitUntil(() => stepOf(form) === 'review', 'no review');
        await state('the review');

        const booking = hold('POST /appointments/book');
        form.shadowRoot!.querySelector<HTMLButtonElement>('[part="submit"]')!.click();
        await waitUntil(() => form.shadowRoot!.querySelector('[part="submit"][disabled]'), 'the booking never left');
        await state('the booking on its way');
        booking(refused(409, 'slot_unavailable', 'taken'));
        await waitUntil(() => form.shadowRoot!.querySelector('[part="booking-error"] [data-time]'), 'no nearest times offered');
        await state('a time taken: the failure and the nearest times');

        bff.on('POST /appointments/book', () => ({ status: 200, body: { success: true, message: 'ok', data: { reference: 'K7QF-2M9X-PA4T-Z3RW-8HNC', doctor_id: 2 } } }));
        bff.on(STATUS, () => statusAnswer());
        await clickIn(form, '[part="booking-error"] [data-time]');
        form.shadowRoot!.querySelector('form')!.requestSubmit();
        await waitUntil(() => stepOf(form) === 'review', 'no review after the nearest time');
        form.shadowRoot!.querySelector<HTMLButtonElement>('[part="submit"]')!.click();
        await waitUntil(() => form.shadowRoot!.querySelector('[part="booking-result"]'), 'no confirmation');
        await state('the confirmation');

        buttonNamed(form, 'Manage booking').click();
        const view = await manageOf(el);
        await loaded(view);
        await state('the manage view');
        await press(view, 'Ask for another time');
        await waitUntil(() => view.shadowRoot!.querySelector('[role="grid"]'), 'no picker of other times');
        await state('the manage view, asking for another time');

        expect(measured).to.have.length(14);
        expect(failures).to.deep.equal([]);
      });
    });
  }

  it('finds a target too small and a focused element hidden under another (the checks can fail)', async () => {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const page = await fixture<HTMLElement>(html`<div style="position:relative">
      <button id="small" style="width:16px;height:16px;padding:0"></button><button id="next" style="width:40px;height:40px"></button>
      <button id="under" style="display:block;width:100px;height:30px">Under</button>
      <div id="over" style="position:absolute;left:0;top:0;width:200px;height:100px;background:#fff"></div>
    </div>`);
    const small = targetSizeFailures(page);
    expect(small).to.have.length(1);
    expect(small[0]).to.contain('<button#small>');
    const hidden = await focusObscuredFailures(page);
    expect(hidden.some((failure) => failure.startsWith('<button#under>'))).to.equal(true);
  });
});
