import { expect, html, waitUntil } from '@open-wc/testing';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import type { BookedDetail } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { aPatient, bookedResult, buttonNamed, fillForm, fixtureReady, formOf, REFERENCE, submitForm } from './support/widget.js';

const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/** The box of an element's words (its text nodes, not the pictures beside them). */
function range(el: Element): DOMRect {
  const words = document.createRange();
  words.setStartAfter(el.querySelector('svg')!);
  words.setEndAfter(el.lastChild!);
  return words.getBoundingClientRect();
}

/** WCAG's contrast ratio of two computed colours (rgb(…)). */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, b_] = colour.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((c) => {
      const v = Number(c) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b_;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The confirmation: what a patient keeps after booking. */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  /** Books Check-up with "any dentist"; the BFF answers that it chose Dr Raj Patel (doctor_id 2). */
  async function bookAnyDentist(lang = 'en'): Promise<{ el: HTMLElement; form: ClinicBookingForm; result: HTMLElement; detail: BookedDetail }> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on('POST /appointments/book', () => ({
      status: 200,
      body: { success: true, message: 'Appointment booked successfully', data: { reference: REFERENCE, doctor_id: 2 } },
    }));
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking" lang=${lang}></clinic-booking>`);
    let detail: BookedDetail | undefined;
    el.addEventListener('clinic-booking:booked', (event) => (detail = event.detail));
    const form = formOf(el);
    await fillForm(form, { ...aPatient({ appointment_time: '14:30' }), treatment_id: '1' });
    await submitForm(form);
    const result = await bookedResult(form);
    return { el, form, result, detail: detail! };
  }

  describe('after a booking', () => {
    it('names the treatment and the dentist the BFF chose for "any dentist"', async () => {
      const { result } = await bookAnyDentist();
      const rows = [...result.querySelectorAll('dt')].map((dt) => [text(dt), text(dt.nextElementSibling)]);
      expect(rows).to.deep.include(['Treatment', 'Check-up (30 min · £60.00)']);
      expect(rows).to.deep.include(['Dentist', 'Dr Raj Patel']);
    });

    it("spells out the date and the time once, in the widget's language, in clinic time", async () => {
      const { result } = await bookAnyDentist();
      const date = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${aPatient().appointment_date}T00:00:00Z`));
      const time = new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: 'UTC' }).format(new Date('2000-01-01T14:30:00Z'));
      const rows = [...result.querySelectorAll('dt')].map((dt) => [text(dt), text(dt.nextElementSibling)]);
      expect(rows).to.deep.include(['Date', date]);
      expect(rows).to.deep.include(['Time', `${time} (clinic time)`]);
      // Once: neither the day's name nor the time said again elsewhere on the card.
      expect(text(result).split(date)).to.have.length(2);
      expect(text(result).split(time)).to.have.length(2);
    });

    it('starts each line of the card at the widget\'s side in Arabic, "Manage booking" too', async () => {
      const { result } = await bookAnyDentist('ar');
      const card = result.getBoundingClientRect();
      const inner = card.right - parseFloat(getComputedStyle(result).paddingRight) - parseFloat(getComputedStyle(result).borderRightWidth);
      const manage = [...result.querySelectorAll('button')].find((button) => text(button) === 'إدارة الحجز')!;
      // A paragraph of a button alone has no letters to take a direction from: it stood left, across the card.
      expect(Math.abs(manage.getBoundingClientRect().right - inner)).to.be.below(2);
    });

    it('opens with a check mark above the title, a picture only, in the theme colour, and focuses the title', async () => {
      const { form, result } = await bookAnyDentist();
      const heading = result.querySelector('#result-heading')!;
      const mark = result.querySelector('svg')!;
      expect(mark.getAttribute('aria-hidden')).to.equal('true');
      expect(text(heading)).to.equal('Your appointment is booked');
      await waitUntil(() => form.shadowRoot!.activeElement === heading, 'the title never had focus');
      const box = mark.getBoundingClientRect();
      expect([box.width, box.height]).to.deep.equal([48, 48]);
      expect(box.bottom, 'above the words').to.be.at.most(range(heading).top);
      // The disc in the theme's link colour (the fixture's #0f766e), apart from the card and the tick on it (3:1 at least).
      const disc = getComputedStyle(mark).backgroundColor;
      expect(disc).to.equal('rgb(15, 118, 110)');
      expect(contrast(disc, getComputedStyle(result).backgroundColor)).to.be.at.least(3);
      expect(contrast(disc, getComputedStyle(mark.querySelector('path')!).stroke)).to.be.at.least(3);
      expect(result.querySelectorAll('.badge'), 'no status badge besides the mark').to.have.length(0);
    });

    it("gives the clinic's address, and how to change or cancel: call its phone", async () => {
      const { result } = await bookAnyDentist();
      const rows = [...result.querySelectorAll('dt')].map((dt) => [text(dt), text(dt.nextElementSibling)]);
      expect(rows).to.deep.include(['Address', '1 High St, London']);
      expect(text(result)).to.contain('To change or cancel, call the clinic: +44 20 7946 0000');
      expect(result.querySelector('a[href^="tel:"]')!.getAttribute('href')).to.equal('tel:+442079460000');
    });

    it('copies the reference and says "Copied"', async () => {
      const { form, result } = await bookAnyDentist();
      let copied = '';
      const clipboard = navigator.clipboard;
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (value: string) => void (copied = value) } });
      try {
        buttonNamed(form, 'Copy').click();
        await waitUntil(() => text(result.querySelector('[data-copied]')) === 'Copied', 'no "Copied"');
      } finally {
        Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
      }
      expect(copied).to.equal(REFERENCE);
      expect(result.closest('[role="status"]') ?? result.getAttribute('role')).to.not.equal(null);
    });

    it('still says "Copied" where the clipboard API is refused, copying the selected reference', async () => {
      const { form, result } = await bookAnyDentist();
      const clipboard = navigator.clipboard;
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('denied')) } });
      try {
        buttonNamed(form, 'Copy').click();
        await waitUntil(() => text(result.querySelector('[data-copied]')) === 'Copied', 'no "Copied"');
      } finally {
        Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
      }
      expect(String(getSelection())).to.contain(REFERENCE.slice(0, 10));
    });

    it('offers an .ics file made in the browser: the clinic, its address, the start, the length and the manage link, no patient data', async () => {
      const { result } = await bookAnyDentist();
      const link = [...result.querySelectorAll('a')].find((a) => text(a) === 'Add to calendar')!;
      expect(link.getAttribute('download')).to.equal('appointment.ics');
      expect(link.href).to.match(/^blob:/);
      const file = await (await fetch(link.href)).text();
      // Lines are folded at 75 octets (RFC 5545): each continuation starts with a space.
      for (const line of file.split('\r\n')) expect(new TextEncoder().encode(line).length).to.be.at.most(75);
      const ics = file.replace(/\r\n /g, '');
      expect(ics).to.match(/^BEGIN:VCALENDAR\r\n/);
      expect(ics).to.contain('SUMMARY:Check-up\\, Fixture Dental');
      expect(ics).to.contain('LOCATION:1 High St\\, London');
      expect(ics).to.contain('DURATION:PT30M');
      // The fixtures' zone is the browser's: 14:30 there, in UTC.
      const [y, m, d] = aPatient().appointment_date.split('-').map(Number) as [number, number, number];
      const start = new Date(y, m - 1, d, 14, 30).toISOString().replace(/[-:]|\.\d+/g, '');
      expect(ics).to.contain(`DTSTART:${start}`);
      for (const personal of ['Jane Patient', '7946 0958']) expect(ics).not.to.contain(personal);
      // The reference is the event's UID (the manage view's cancelling file names the same one), and in
      // the description's manage link, after the fragment's # (this page, as the BFF named no other).
      expect(ics).to.contain(`UID:${REFERENCE}@clinic-booking\r\n`);
      const page = location.href.split('#')[0]!;
      expect(ics).to.contain(`DESCRIPTION:Manage booking: ${page}#clinic-booking-manage=${REFERENCE}\r\n`);
      expect(ics.split(REFERENCE)).to.have.length(3);
    });

    it('tells the page which dentist was booked, and nothing personal', async () => {
      const { detail } = await bookAnyDentist();
      expect(detail).to.deep.equal({
        reference: REFERENCE,
        date: aPatient().appointment_date,
        time: '14:30',
        treatment_id: 1,
        doctor_id: 2,
      });
    });

    it('has no axe violations', async () => {
      const { el } = await bookAnyDentist();
      await expect(el).to.be.accessible();
    });
  });
});
