import { expect, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ClinicBookingManage } from '../../widget/manage/manage-view.js';
import { es } from '../../widget/manage/i18n/es.js';
import { fr } from '../../widget/manage/i18n/fr.js';
import { nl } from '../../widget/manage/i18n/nl.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import {
  BOOKED_DATE,
  CHANGE,
  changes,
  inView,
  keepsRequests,
  leaveManageLink,
  openByLink,
  press,
  REF,
  STATUS,
  statusAnswer,
  viewButton,
  viewText,
} from './support/manage.js';
import { deepActiveElement, formOf, markup, nextDate, periodOf, refused, stepOf } from './support/widget.js';
import { setViewport } from './support/viewport.js';

const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const longDate = (date: string, lang = 'en') => new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
const clock = (time: string, lang = 'en') => new Intl.DateTimeFormat(lang, { timeStyle: 'short', timeZone: 'UTC' }).format(new Date(`2000-01-01T${time}:00Z`));
/** The day a request taken at `at` shows, in the visitor's own calendar. */
const dayOf = (at: string, lang = 'en') => new Intl.DateTimeFormat(lang, { dateStyle: 'full' }).format(new Date(at));
const chips = (view: ClinicBookingManage) => [...view.shadowRoot!.querySelectorAll('.chip')].map((chip) => text(chip.querySelector('span:not(.n)')));
const changeCalls = (bff: FakeBff) => bff.calls.filter((call) => call.path === '/appointments/change-requests');

/** On the picker: shows the month of `date` ("Next month") and clicks the day. */
async function pickDay(view: ClinicBookingManage, date: string): Promise<void> {
  for (let i = 0; i < 14 && !inView(view, `[data-date="${date}"]`); i++) {
    inView(view, '.month > button:last-of-type')!.click();
    await view.updateComplete;
  }
  inView(view, `[data-date="${date}"]`)!.click();
  await view.updateComplete;
}

/** On the picker, once a day is chosen: opens the period of its time (HH:MM) with its header if another is open, and clicks the time. */
async function pickTime(view: ClinicBookingManage, time: string): Promise<void> {
  await waitUntil(() => inView(view, '.times[aria-busy="false"]'), 'the times never loaded');
  if (!inView(view, `.times [data-time="${time}"]`)) {
    (inView(view, `#period-${periodOf(time)}`) as HTMLElement).click();
    await view.updateComplete;
  }
  await waitUntil(() => inView(view, `.times [data-time="${time}"]`), `no time ${time} in the picker`);
  inView(view, `.times [data-time="${time}"]`)!.click();
  await view.updateComplete;
}

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => {
    bff.restore();
    leaveManageLink();
  });

  /** The widget opened by a manage link, the BFF answering the status with `change` (and `status`). */
  async function open(change = changes(), status = 'Scheduled', lang = 'en') {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on(STATUS, () => statusAnswer(change, status));
    return openByLink(bff, REF, (apiBase) => html`<clinic-booking api-base=${apiBase} sections="booking" lang=${lang}></clinic-booking>`);
  }

  describe('in the manage view of a booking', () => {
    it('shows the booking as a card: its status, treatment, dentist, day, time and the address', async () => {
      const { view } = await open();
      const rows = [...view.shadowRoot!.querySelectorAll('dt')].map((dt) => [text(dt), text(dt.nextElementSibling)]);
      expect(rows).to.deep.equal([
        ['Status', 'Scheduled'],
        ['Treatment', 'Check-up'],
        ['Dentist', 'Dr Raj Patel'],
        ['Date', longDate(BOOKED_DATE)],
        ['Time', clock('10:15')],
        ['Address', '1 High St, London'],
      ]);
      expect(markup(inView(view, '.badge'))).to.contain('data-status="Scheduled"');
    });

    it('looks the booking up by its reference in the body of a POST', async () => {
      await open();
      expect(bff.calls.filter((call) => call.path === '/appointments/status').map((call) => [call.method, call.body])).to.deep.equal([
        ['POST', { reference: REF.replace(/-/g, '') }],
      ]);
    });

    it('offers "Ask for another time" and "Request cancellation", as buttons', async () => {
      const { view } = await open();
      const actions = [...view.shadowRoot!.querySelectorAll('.actions button')].map((button) => [button.tagName, text(button), button.getAttribute('type')]);
      expect(actions).to.deep.equal([
        ['BUTTON', 'Ask for another time', 'button'],
        ['BUTTON', 'Request cancellation', 'button'],
      ]);
    });

    it('moves focus to its heading, "Manage booking"', async () => {
      const { view } = await open();
      await waitUntil(() => deepActiveElement()?.id === 'manage-heading', 'focus never reached the heading');
      expect(deepActiveElement()?.tagName).to.equal('H3');
      expect(text(inView(view, '#manage-heading'))).to.equal('Manage booking');
    });

    it('gives the manage link to keep: this page with the reference in its fragment, and a copy button', async () => {
      const { view } = await open();
      const page = location.href.split('#')[0];
      expect((inView(view, '#manage-link') as HTMLInputElement).value).to.equal(`${page}#clinic-booking-manage=${REF}`);
      let copied = '';
      const clipboard = navigator.clipboard;
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (value: string) => void (copied = value) } });
      try {
        await press(view, 'Copy link');
        await waitUntil(() => viewText(view).includes('Copied'), 'no "Copied"');
      } finally {
        Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
      }
      expect(copied).to.equal(`${page}#clinic-booking-manage=${REF}`);
    });

    it("links to the clinic's booking page when the BFF names one", async () => {
      const { view } = await open(changes({ booking_page_url: 'https://clinic.example/book#top' }));
      expect((inView(view, '#manage-link') as HTMLInputElement).value).to.equal(`https://clinic.example/book#clinic-booking-manage=${REF}`);
    });

    it("shows the clinic's own words when it has some, as plain text", async () => {
      const { view } = await open(changes({ text: 'Cancellations are free.\n<b>Thank you</b>' }));
      expect(text(inView(view, '.clinic-text'))).to.equal('Cancellations are free. <b>Thank you</b>');
      expect(markup(inView(view, '.clinic-text b'))).to.equal(null);
    });

    it('has no axe violations', async () => {
      const { el } = await open();
      await expect(el).to.be.accessible();
    });
  });

  describe('when a cancellation is asked for', () => {
    it('asks to confirm first, with focus on the question; "Keep my appointment" goes back', async () => {
      const { view } = await open();
      await press(view, 'Request cancellation');
      await waitUntil(() => deepActiveElement()?.id === 'confirm-heading', 'focus never reached the question');
      expect(text(inView(view, '#confirm-heading'))).to.equal('Cancel this appointment?');
      expect(changeCalls(bff)).to.have.length(0);
      await press(view, 'Keep my appointment');
      await waitUntil(() => deepActiveElement()?.id === 'manage-heading', 'focus never came back to the heading');
      expect(text(viewButton(view, 'Request cancellation'))).to.equal('Request cancellation');
    });

    it('sends it once confirmed and shows "Cancellation requested on <date>", in a live region', async () => {
      const { view } = await open();
      keepsRequests(bff, changes(), '2026-11-20T09:30:00Z');
      await press(view, 'Request cancellation');
      await press(view, 'Yes, request cancellation');
      await waitUntil(() => inView(view, '.outcome'), 'no outcome shown');
      expect(changeCalls(bff).map((call) => [call.method, call.body])).to.deep.equal([['POST', { reference: REF.replace(/-/g, ''), kind: 'cancel' }]]);
      const outcome = inView(view, '.outcome')!;
      expect(text(outcome)).to.contain(`Cancellation requested on ${dayOf('2026-11-20T09:30:00Z')}`);
      expect(outcome.closest('[aria-live="polite"]') != null).to.equal(true);
      // Nothing more to ask once a cancellation is asked for.
      expect(markup(inView(view, '.actions'))).to.equal(null);
      await waitUntil(() => deepActiveElement()?.id === 'manage-heading', 'focus never came back to the heading');
    });

    it('shows a cancellation asked for before (already_requested) as requested, with no error', async () => {
      // Asked for in another tab since this one loaded: the status here does not know of it yet.
      const { view } = await open();
      keepsRequests(bff, changes({ cancel_requested_at: '2026-11-18T08:00:00Z' }));
      bff.on(STATUS, () => statusAnswer(changes({ cancel_requested_at: '2026-11-18T08:00:00Z', can_request_cancel: false, can_request_move: false })));
      await press(view, 'Request cancellation');
      await press(view, 'Yes, request cancellation');
      await waitUntil(() => inView(view, '.outcome'), 'no outcome shown');
      expect(text(inView(view, '.outcome'))).to.contain(`Cancellation requested on ${dayOf('2026-11-18T08:00:00Z')}`);
      expect(markup(inView(view, '.failure'))).to.equal(null);
    });

    it('has no axe violations in its confirm step', async () => {
      const { el, view } = await open();
      await press(view, 'Request cancellation');
      await expect(el).to.be.accessible();
    });
  });

  describe('when another time is asked for', () => {
    const TUESDAY = nextDate('Tuesday', 9);
    const WEDNESDAY = nextDate('Wednesday', 9);

    it("offers the booking form's calendar and times, for the booked dentist and treatment", async () => {
      const { view } = await open();
      await press(view, 'Ask for another time');
      await waitUntil(() => deepActiveElement()?.id === 'move-heading', 'focus never reached the picker');
      expect(markup(inView(view, '[role="grid"]'))).to.not.equal(null);
      await pickDay(view, TUESDAY);
      await waitUntil(() => inView(view, '.times [data-time="09:00"]'), 'no times');
      const asked = bff.calls.filter((call) => call.path === '/availability' && call.query.date === TUESDAY);
      expect(asked.map((call) => call.query)).to.deep.include({ date: TUESDAY, doctor_id: '2', treatment_id: '1' });
    });

    it('opens on the first bookable day, chosen with its times shown, and wishes for nothing until a time is chosen', async () => {
      const { view } = await open();
      await press(view, 'Ask for another time');
      const day = inView(view, '[aria-selected="true"] [data-date]')!.getAttribute('data-date')!;
      const bookable = [...view.shadowRoot!.querySelectorAll('[role="grid"] [data-date]:not([aria-disabled])')].map((button) => button.getAttribute('data-date'));
      expect(bookable[0]).to.equal(day);
      await waitUntil(() => inView(view, '.times[aria-busy="false"] .slots [data-time]'), 'no times');
      expect(bff.calls.filter((call) => call.path === '/availability').map((call) => call.query.date)).to.deep.equal([day]);
      expect(chips(view)).to.have.length(0);
      expect(viewText(view)).to.contain('None yet: choose a day, then a time.');
    });

    it('lists up to three chosen times as chips in their order, pressed in the times, and says when the list is full', async () => {
      const { view } = await open();
      await press(view, 'Ask for another time');
      await pickDay(view, TUESDAY);
      await pickTime(view, '11:00');
      await pickTime(view, '09:30');
      await pickDay(view, WEDNESDAY);
      await pickTime(view, '14:00');
      const short = (date: string, time: string) =>
        `${new Intl.DateTimeFormat('en', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))}, ${clock(time)}`;
      expect(chips(view)).to.deep.equal([short(TUESDAY, '11:00'), short(TUESDAY, '09:30'), short(WEDNESDAY, '14:00')]);
      expect(inView(view, '.times [data-time="14:00"]')!.getAttribute('aria-pressed')).to.equal('true');
      expect(viewText(view)).to.contain('You have chosen 3 times. Remove one to choose another.');
      // A fourth is not added.
      await pickTime(view, '15:00');
      expect(chips(view)).to.have.length(3);
      expect(text(inView(view, '.visually-hidden[aria-live="polite"]'))).to.equal('You have chosen 3 times. Remove one to choose another.');
      await pickDay(view, TUESDAY);
      await waitUntil(() => inView(view, '.times [data-time="09:30"]'), 'no times');
      expect([...view.shadowRoot!.querySelectorAll('.times [aria-pressed="true"]')].map((b) => b.getAttribute('data-time'))).to.deep.equal(['09:30', '11:00']);
    });

    it("removes a chip with its labelled button, and a chosen time chosen again; focus stays in the list", async () => {
      const { view } = await open();
      await press(view, 'Ask for another time');
      await pickDay(view, TUESDAY);
      await pickTime(view, '09:00');
      await pickTime(view, '10:00');
      const remove = inView(view, '.chip:first-child button')!;
      expect(remove.getAttribute('aria-label')).to.match(/^Remove .*9:00/);
      remove.click();
      await view.updateComplete;
      expect(chips(view)).to.have.length(1);
      await waitUntil(() => deepActiveElement()?.closest('.chip') != null, 'focus left the list');
      expect(text(inView(view, '.visually-hidden[aria-live="polite"]'))).to.match(/9:00 AM removed\.$/);
      await pickTime(view, '10:00');
      expect(chips(view)).to.have.length(0);
      expect(viewText(view)).to.contain('None yet: choose a day, then a time.');
    });

    it('sends the wished starts in order with the message, then shows them as asked for', async () => {
      const { view } = await open();
      keepsRequests(bff, changes(), '2026-11-21T10:00:00Z');
      await press(view, 'Ask for another time');
      await pickDay(view, WEDNESDAY);
      await pickTime(view, '16:00');
      await pickDay(view, TUESDAY);
      await pickTime(view, '08:30');
      const message = inView(view, '#message') as HTMLTextAreaElement;
      expect(message.maxLength).to.equal(500);
      message.value = '  Mornings are best.\r\nThanks  ';
      message.dispatchEvent(new Event('input'));
      await press(view, 'Send request');
      await waitUntil(() => inView(view, '.outcome'), 'no outcome shown');
      expect(changeCalls(bff).map((call) => call.body)).to.deep.equal([
        {
          reference: REF.replace(/-/g, ''),
          kind: 'move',
          preferred_starts: [
            { date: WEDNESDAY, time: '16:00' },
            { date: TUESDAY, time: '08:30' },
          ],
          message: 'Mornings are best.\nThanks',
        },
      ]);
      const outcome = text(inView(view, '.outcome'));
      expect(outcome).to.contain(`Another time requested on ${dayOf('2026-11-21T10:00:00Z')}`);
      expect(outcome).to.contain(`${longDate(WEDNESDAY)}, ${clock('16:00')}`);
      expect(outcome.indexOf(longDate(WEDNESDAY))).to.be.below(outcome.indexOf(longDate(TUESDAY)));
      // The cancellation is still open; another time is asked for already.
      expect([...view.shadowRoot!.querySelectorAll('.actions button')].map(text)).to.deep.equal(['Request cancellation']);
    });

    it('asks for at least one time before sending, and sends nothing', async () => {
      const { view } = await open();
      await press(view, 'Ask for another time');
      await press(view, 'Send request');
      expect(text(inView(view, '#starts-error'))).to.equal('Please choose at least one time.');
      expect(changeCalls(bff)).to.have.length(0);
    });

    it('refuses a message with hidden control characters, as the booking note does', async () => {
      const { view } = await open();
      await press(view, 'Ask for another time');
      await pickDay(view, TUESDAY);
      await pickTime(view, '09:00');
      const message = inView(view, '#message') as HTMLTextAreaElement;
      message.value = 'Hello \u202Eevil';
      message.dispatchEvent(new Event('input'));
      await press(view, 'Send request');
      expect(message.getAttribute('aria-invalid')).to.equal('true');
      expect(text(inView(view, '#message-error'))).to.contain('Remove the hidden control');
      await waitUntil(() => deepActiveElement()?.id === 'message', 'focus never reached the message');
      expect(changeCalls(bff)).to.have.length(0);
    });

    it('is done with the keyboard alone: Tab, arrows and Enter', async () => {
      const { view } = await open();
      keepsRequests(bff);
      const tabTo = async (matches: (el: Element | null) => boolean, what: string) => {
        for (let i = 0; i < 40 && !matches(deepActiveElement()); i++) await sendKeys({ press: 'Tab' });
        expect(matches(deepActiveElement()), `Tab never reached ${what}`).to.equal(true);
      };
      await tabTo((f) => f?.textContent?.trim() === 'Ask for another time', '"Ask for another time"');
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => deepActiveElement()?.id === 'move-heading', 'focus never reached the picker');
      await tabTo((f) => f?.closest('[role="grid"]') != null, 'the calendar');
      for (let i = 0; i < 60 && deepActiveElement()?.getAttribute('data-date') !== TUESDAY; i++) await sendKeys({ press: 'ArrowRight' });
      expect(deepActiveElement()?.getAttribute('data-date')).to.equal(TUESDAY);
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => inView(view, '.times [data-time="08:00"]'), 'no times');
      await tabTo((f) => f?.getAttribute('data-time') != null, 'the times');
      await sendKeys({ press: 'ArrowRight' });
      expect(deepActiveElement()?.getAttribute('data-time')).to.equal('08:15');
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => chips(view).length === 1, 'Enter did not choose the time');
      await tabTo((f) => f?.textContent?.trim() === 'Send request', '"Send request"');
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => changeCalls(bff).length === 1, 'nothing was sent');
      expect((changeCalls(bff)[0]!.body as { preferred_starts: unknown }).preferred_starts).to.deep.equal([{ date: TUESDAY, time: '08:15' }]);
    });

    it('has no axe violations with times chosen', async () => {
      const { el, view } = await open();
      await press(view, 'Ask for another time');
      await pickDay(view, TUESDAY);
      await pickTime(view, '09:00');
      await expect(el).to.be.accessible();
    });
  });

  describe('when a request was made before', () => {
    it('shows another time as requested, with the times asked for, and still offers a cancellation', async () => {
      const { view } = await open(
        changes({ move_requested_at: '2026-11-19T12:00:00Z', can_request_move: false, move_preferred_starts: [{ date: '2030-01-08', time: '09:30' }] }),
      );
      const outcome = text(inView(view, '.outcome'));
      expect(outcome).to.contain(`Another time requested on ${dayOf('2026-11-19T12:00:00Z')}`);
      expect(outcome).to.contain(`${longDate('2030-01-08')}, ${clock('09:30')}`);
      expect(outcome).to.contain('The clinic will confirm. Until then, your appointment stays as booked.');
      expect([...view.shadowRoot!.querySelectorAll('.actions button')].map(text)).to.deep.equal(['Request cancellation']);
    });

    it('shows a cancellation as requested, with nothing more to ask', async () => {
      const { view } = await open(changes({ cancel_requested_at: '2026-11-19T12:00:00Z', can_request_cancel: false, can_request_move: false }));
      expect(text(inView(view, '.outcome'))).to.contain(`Cancellation requested on ${dayOf('2026-11-19T12:00:00Z')}`);
      expect(markup(inView(view, '.actions'))).to.equal(null);
    });
  });

  describe('when the booking is cancelled', () => {
    const cancelled = () => open(changes({ cancel_requested_at: '2026-11-19T12:00:00Z', can_request_cancel: false, can_request_move: false, closed_reason: 'already_cancelled' }), 'Cancelled');

    it('says so and offers "Book a new appointment", with no request to make', async () => {
      const { view } = await cancelled();
      expect(markup(inView(view, '.badge'))).to.contain('data-status="Cancelled"');
      expect(text(inView(view, '.outcome'))).to.contain('This appointment is cancelled.');
      expect(text(viewButton(view, 'Book a new appointment'))).to.equal('Book a new appointment');
      expect(markup(inView(view, '.actions'))).to.equal(null);
      expect(viewText(view)).not.to.contain('Cancellation requested');
    });

    it('offers a calendar file that cancels the booking\'s entry: METHOD:CANCEL, its UID, STATUS:CANCELLED, a higher SEQUENCE', async () => {
      const { view } = await cancelled();
      await waitUntil(() => inView(view, 'a[download="appointment-cancelled.ics"]'), 'no calendar file');
      const link = inView(view, 'a[download="appointment-cancelled.ics"]') as HTMLAnchorElement;
      expect(text(link)).to.equal('Remove from calendar');
      const ics = await (await fetch(link.href)).text();
      const lines = ics.split('\r\n');
      expect(lines.slice(0, 4)).to.deep.equal(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//clinic-booking//EN', 'METHOD:CANCEL']);
      expect(lines).to.include.members([`UID:${REF}@clinic-booking`, 'STATUS:CANCELLED', 'SEQUENCE:1', 'SUMMARY:Check-up\\, Fixture Dental', 'DURATION:PT30M']);
      const [y, m, d] = BOOKED_DATE.split('-').map(Number) as [number, number, number];
      expect(lines).to.include(`DTSTART:${new Date(y, m - 1, d, 10, 15).toISOString().replace(/[-:]|\.\d+/g, '')}`);
      expect(lines.indexOf('STATUS:CANCELLED')).to.be.above(lines.indexOf('BEGIN:VEVENT'));
      expect(ics).not.to.contain('Jane Patient');
    });

    it('"Book a new appointment" closes the view on the booking form\'s first step', async () => {
      const { el, view } = await cancelled();
      await press(view, 'Book a new appointment');
      await waitUntil(() => !el.shadowRoot!.querySelector('clinic-booking-manage'), 'the view stayed');
      const form = formOf(el);
      await form.updateComplete;
      expect(stepOf(form)).to.equal('treatment');
      expect(form.closest('[hidden]') == null).to.equal(true);
    });
  });

  describe("inside the clinic's change window", () => {
    it("gives the reason in words and the clinic's phone as a tel: link, in place of the actions", async () => {
      const { el, view } = await open(changes({ can_request_cancel: false, can_request_move: false, closed_reason: 'inside_change_window', min_notice_hours: 48 }));
      expect(markup(inView(view, '.actions'))).to.equal(null);
      expect(viewText(view)).to.contain('Changes can be requested online up to 48 hours before the appointment.');
      expect(viewText(view)).to.contain('To cancel or change it, please call the clinic: +44 20 7946 0000');
      expect(inView(view, 'a[href^="tel:"]')!.getAttribute('href')).to.equal('tel:+442079460000');
      await expect(el).to.be.accessible();
    });
  });

  describe('when the actions are closed for another reason', () => {
    it('says that the appointment has passed', async () => {
      const { view } = await open(changes({ can_request_cancel: false, can_request_move: false, closed_reason: 'in_past' }));
      expect(viewText(view)).to.contain('This appointment has passed.');
      expect(markup(inView(view, '.actions'))).to.equal(null);
    });

    it('says that the appointment has taken place', async () => {
      const { view } = await open(changes({ can_request_cancel: false, can_request_move: false, closed_reason: 'appointment_completed' }), 'Completed');
      expect(viewText(view)).to.contain('This appointment has taken place.');
      expect(markup(inView(view, '.actions'))).to.equal(null);
    });

    it('offers the cancellation alone where the clinic takes no moves online, with its phone for one', async () => {
      const { view } = await open(changes({ can_request_move: false, move_offered: false }));
      expect([...view.shadowRoot!.querySelectorAll('.actions button')].map(text)).to.deep.equal(['Request cancellation']);
      expect(viewText(view)).to.contain('To move it to another time, please call the clinic: +44 20 7946 0000');
    });
  });

  describe('when the BFF refuses a request', () => {
    it('inside the change window: says why with the phone, and the view shows the window closed', async () => {
      const { view } = await open();
      bff.on(CHANGE, () => refused(400, 'validation_error', 'too late', 'inside_change_window'));
      await press(view, 'Request cancellation');
      // The status now says the window has closed.
      bff.on(STATUS, () => statusAnswer(changes({ can_request_cancel: false, can_request_move: false, closed_reason: 'inside_change_window' })));
      await press(view, 'Yes, request cancellation');
      await waitUntil(() => inView(view, '#failure'), 'no failure shown');
      const failure = inView(view, '#failure')!;
      expect(failure.getAttribute('role')).to.equal('alert');
      expect(text(failure)).to.equal('The appointment is now too close to change online. Or call the clinic: +44 20 7946 0000');
      await waitUntil(() => viewText(view).includes('Changes can be requested online up to 24 hours'), 'the window never showed closed');
      expect(markup(inView(view, '#confirm-heading'))).to.equal(null);
      await waitUntil(() => deepActiveElement()?.id === 'failure', 'focus never reached the failure');
    });

    it("for a wished start: the booking's words for it, and the chosen times kept", async () => {
      const { view } = await open();
      bff.on(CHANGE, () => refused(400, 'validation_error', 'closed', 'closed_day'));
      await press(view, 'Ask for another time');
      await pickDay(view, nextDate('Tuesday', 9));
      await pickTime(view, '09:00');
      await press(view, 'Send request');
      await waitUntil(() => inView(view, '#failure'), 'no failure shown');
      expect(text(inView(view, '#failure'))).to.equal('The clinic is closed on that day. Please choose another day.');
      expect(chips(view)).to.have.length(1);
      expect(markup(inView(view, '#move-heading'))).to.not.equal(null);
    });

    it('too many attempts (429): how long to wait, and the phone', async () => {
      const { view } = await open();
      bff.on(CHANGE, () => ({ ...refused(429, 'rate_limited', 'slow down'), headers: { 'retry-after': '120' } }));
      await press(view, 'Request cancellation');
      await press(view, 'Yes, request cancellation');
      await waitUntil(() => inView(view, '#failure'), 'no failure shown');
      expect(text(inView(view, '#failure'))).to.equal('Too many attempts. Please try again in 2 minutes. Or call the clinic: +44 20 7946 0000');
      // Still on the confirm step, to try again later.
      expect(viewButton(view, 'Yes, request cancellation').disabled).to.equal(false);
    });

    it('tells the page of the failure, without the reference', async () => {
      const { el, view } = await open();
      const errors: unknown[] = [];
      el.addEventListener('clinic-booking:error', (event) => errors.push(event.detail));
      bff.on(CHANGE, () => refused(400, 'validation_error', 'cancelled', 'already_cancelled'));
      await press(view, 'Request cancellation');
      await press(view, 'Yes, request cancellation');
      await waitUntil(() => inView(view, '#failure'), 'no failure shown');
      expect(text(inView(view, '#failure'))).to.equal('This appointment is already cancelled.');
      expect(errors).to.deep.equal([{ kind: 'change', status: 400, code: 'validation_error' }]);
    });
  });

  describe('when the BFF takes no change requests (its status has no changes)', () => {
    it('shows the card and how to change it by phone, with no actions', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on(STATUS, () => statusAnswer(null));
      const { view } = await openByLink(bff);
      expect(markup(inView(view, 'dl'))).to.not.equal(null);
      expect(markup(inView(view, '.actions'))).to.equal(null);
      expect(viewText(view)).to.contain('To change or cancel, call the clinic: +44 20 7946 0000');
    });
  });

  describe('when the booking cannot be found', () => {
    it('says so, with "Try again" and "Close"', async () => {
      bff = installFakeBff(clinicFixtures(), uniqueApiBase());
      bff.on(STATUS, () => refused(404, 'not_found', 'no such booking'));
      const { view } = await openByLink(bff);
      expect(text(inView(view, '.failure'))).to.equal('No booking has that reference. Check it and try again.');
      expect(text(viewButton(view, 'Try again'))).to.equal('Try again');
      expect(text(viewButton(view, 'Close'))).to.equal('Close');
    });
  });

  describe('on a 320 px phone', () => {
    afterEach(() => setViewport({ width: 800, height: 600 }));

    /** Whether anything in the view reaches past its right or left edge. */
    const overflows = (view: ClinicBookingManage) => {
      const edge = view.getBoundingClientRect();
      return [...view.shadowRoot!.querySelectorAll('*')]
        .filter((node) => {
          const box = node.getBoundingClientRect();
          return box.width > 0 && (box.right > edge.right + 0.5 || box.left < edge.left - 0.5);
        })
        .map((node) => node.outerHTML.slice(0, 80));
    };

    for (const lang of ['en', 'de', 'ar']) {
      it(`keeps every state within the screen, its buttons 44 px tall (lang="${lang}")`, async () => {
        await setViewport({ width: 320, height: 640 });
        const { view } = await open(changes({ text: 'Free of charge until 24 hours before.' }), 'Scheduled', lang);
        await waitUntil(() => inView(view, '.actions'), 'no actions');
        expect(overflows(view)).to.deep.equal([]);
        inView(view, '.actions button.secondary')!.click();
        await view.updateComplete;
        expect(overflows(view)).to.deep.equal([]);
        inView(view, '.step button.secondary')!.click();
        await view.updateComplete;
        inView(view, '.actions button:not(.secondary)')!.click();
        await view.updateComplete;
        await pickDay(view, nextDate('Wednesday', 9));
        await pickTime(view, '09:00');
        await pickTime(view, '09:15');
        await pickTime(view, '17:30');
        expect(chips(view)).to.have.length(3);
        expect(overflows(view)).to.deep.equal([]);
        const small = [...view.shadowRoot!.querySelectorAll('button')].filter((button) => button.getBoundingClientRect().height < 44);
        expect(small.map((button) => button.outerHTML.slice(0, 80))).to.deep.equal([]);
      });
    }
  });

  describe('in other languages', () => {
    it('speaks German', async () => {
      const { view } = await open(changes(), 'Scheduled', 'de');
      await waitUntil(() => viewText(view).includes('Andere Zeit anfragen'), 'no German');
      expect(text(inView(view, '#manage-heading'))).to.equal('Buchung verwalten');
      expect([...view.shadowRoot!.querySelectorAll('.actions button')].map(text)).to.deep.equal(['Andere Zeit anfragen', 'Absage anfragen']);
      expect(viewText(view)).to.contain(longDate(BOOKED_DATE, 'de'));
    });

    for (const [lang, words] of [['fr', fr], ['es', es], ['nl', nl]] as const) {
      it(`speaks ${lang}`, async () => {
        const { view } = await open(changes(), 'Scheduled', lang);
        await waitUntil(() => viewText(view).includes(words.requestMove), `no ${lang}`);
        expect([...view.shadowRoot!.querySelectorAll('.actions button')].map(text)).to.deep.equal([words.requestMove, words.requestCancel]);
        expect(text(inView(view, 'label[for="manage-link"]'))).to.equal(words.link);
      });
    }

    it('speaks Arabic, right to left, and stays accessible', async () => {
      const { el, view } = await open(changes({ closed_reason: 'inside_change_window', can_request_cancel: false, can_request_move: false }), 'Scheduled', 'ar');
      await waitUntil(() => viewText(view).includes('اتصال'), 'no Arabic');
      expect(text(inView(view, '#manage-heading'))).to.equal('إدارة الحجز');
      expect(getComputedStyle(inView(view, '.manage')!).direction).to.equal('rtl');
      expect(viewText(view)).to.contain(`يمكن طلب التغييرات عبر الإنترنت حتى ${(24).toLocaleString('ar')} ساعة قبل الموعد.`);
      await expect(el).to.be.accessible();
    });
  });
});
