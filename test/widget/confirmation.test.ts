import { expect, html, waitUntil } from '@open-wc/testing';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import type { BookedDetail } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { aPatient, bookedResult, buttonNamed, fillForm, fixtureReady, formOf, REFERENCE, submitForm } from './support/widget.js';

const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/** The confirmation: what a patient keeps after booking. */
describe('<clinic-booking>', () => {
  let bff: FakeBff;
  afterEach(() => bff.restore());

  /** Books Check-up with "any dentist"; the BFF answers that it chose Dr Raj Patel (doctor_id 2). */
  async function bookAnyDentist(): Promise<{ el: HTMLElement; form: ClinicBookingForm; result: HTMLElement; detail: BookedDetail }> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on('POST /appointments/book', () => ({
      status: 200,
      body: { success: true, message: 'Appointment booked successfully', data: { reference: REFERENCE, doctor_id: 2 } },
    }));
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
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

    it("spells out the date and the time in the widget's language, in clinic time", async () => {
      const { result } = await bookAnyDentist();
      const date = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${aPatient().appointment_date}T00:00:00Z`));
      const time = new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: 'UTC' }).format(new Date('2000-01-01T14:30:00Z'));
      expect(text(result)).to.contain(`We expect you on ${date} at ${time} (clinic time).`);
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
