import { expect, html, waitUntil } from '@open-wc/testing';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import type { ErrorDetail } from '../../widget/events.js';
import { installFakeBff, type FakeAnswer, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { aPatient, booked, fillForm, fixtureReady, formOf, postsTo, REFERENCE, refused, settled, submitForm } from './support/widget.js';
import { skipWidgetWaits } from './support/widget-waits.js';

/**
 * A slow booking is never booked twice, and the patient sees it: when the BFF
 * says the outcome is unknown (504), the form re-sends the same body with the
 * same Idempotency-Key, up to twice with a growing pause, and shows the
 * booking the server replays.
 */

const BOOK = 'POST /appointments/book';
const outcomeUnknown = (): FakeAnswer =>
  refused(504, 'booking_outcome_unknown', 'The clinic system did not confirm this booking in time, so it may or may not have been made');

const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim();

describe('<clinic-booking>', () => {
  let bff: FakeBff;
  let errors: ErrorDetail[];
  const recordError = (event: CustomEvent<ErrorDetail>) => errors.push(event.detail);
  beforeEach(() => {
    errors = [];
    document.addEventListener('clinic-booking:error', recordError);
  });
  afterEach(() => {
    document.removeEventListener('clinic-booking:error', recordError);
    bff.restore();
  });

  const bookings = () => postsTo(bff.calls, '/appointments/book');
  const result = (form: ClinicBookingForm) => form.shadowRoot!.querySelector('[part="booking-result"]');
  const failure = (form: ClinicBookingForm) => form.shadowRoot!.querySelector('[part="booking-error"]');

  /**
   * Answers the bookings in turn from `answers` (the last one again if more come), noting for each whether the
   * form was busy (its submit button disabled) as it arrived: a re-send comes while it is.
   */
  async function bookThrough(answers: FakeAnswer[]): Promise<{ el: ClinicBooking; form: ClinicBookingForm; busyAtEach: boolean[] }> {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const busyAtEach: boolean[] = [];
    const shown: { form?: ClinicBookingForm } = {};
    bff.on(BOOK, () => {
      busyAtEach.push(shown.form?.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')?.disabled === true);
      return answers[Math.min(busyAtEach.length - 1, answers.length - 1)]!;
    });
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
    const form = (shown.form = formOf(el));
    await fillForm(form, aPatient());
    await submitForm(form);
    return { el, form, busyAtEach };
  }

  // The pauses before a re-send are the widget's own waits: noted, and skipped rather than spent.
  let waits: ReturnType<typeof skipWidgetWaits>;
  beforeEach(() => (waits = skipWidgetWaits()));
  afterEach(() => waits.restore());

  describe('when the BFF says a booking’s outcome is unknown (504)', () => {
    it('re-sends the same body with the same Idempotency-Key and shows the booking the replay returns', async () => {
      const { form } = await bookThrough([outcomeUnknown(), booked()]);

      await waitUntil(() => result(form), 'the replayed booking was never shown', { timeout: 4_000 });

      expect(bookings()).to.have.length(2);
      expect(bookings()[1]!.headers['idempotency-key']).to.equal(bookings()[0]!.headers['idempotency-key']);
      expect(bookings()[1]!.body).to.deep.equal(bookings()[0]!.body);
      expect(text(result(form)!.querySelector('[data-reference]'))).to.equal(REFERENCE);
      expect(failure(form)).to.equal(null);
      expect(errors).to.deep.equal([]);
    });

    it('keeps the form busy while it re-sends, and pauses before each re-send, longer each time', async () => {
      const { form, busyAtEach } = await bookThrough([outcomeUnknown(), outcomeUnknown(), booked()]);

      await waitUntil(() => result(form), 'the booking was never shown', { timeout: 6_000 });

      expect(bookings()).to.have.length(3);
      expect(busyAtEach.slice(1)).to.deep.equal([true, true]);
      expect(new Set(bookings().map((call) => call.headers['idempotency-key'])).size).to.equal(1);
      expect(waits.asked).to.deep.equal([1_000, 2_000]);
    });

    it('re-sends on a 504 without the BFF error body too (a proxy in front of it timed out)', async () => {
      const { form } = await bookThrough([{ status: 504, body: 'Gateway Timeout' }, booked()]);

      await waitUntil(() => result(form), 'the replayed booking was never shown', { timeout: 4_000 });

      expect(bookings()).to.have.length(2);
    });

    it('after two re-sends, says the booking could not be confirmed and that trying again is safe, keeping the key', async () => {
      const { form } = await bookThrough([outcomeUnknown()]);

      await waitUntil(() => failure(form), 'no failure shown', { timeout: 6_000 });
      await settled(form);

      expect(bookings()).to.have.length(3);
      expect(text(failure(form))).to.equal(
        'The clinic’s system is slow to answer, so we could not confirm your booking. Please try again in a moment: your details are kept, and it will not be booked twice.',
      );
      expect(errors).to.deep.equal([{ kind: 'booking', status: 504, code: 'booking_outcome_unknown' }]);

      // "Book appointment" again sends the same booking with the same key.
      bff.on(BOOK, () => booked());
      await submitForm(form);
      await waitUntil(() => result(form), 'the booking was never shown', { timeout: 2_000 });
      expect(new Set(bookings().map((call) => call.headers['idempotency-key'])).size).to.equal(1);
    });

    it('never re-sends a booking the clinic refused (409)', async () => {
      const { form } = await bookThrough([refused(409, 'slot_unavailable', 'taken')]);

      await waitUntil(() => failure(form), 'no failure shown');
      await settled(form);

      expect(bookings()).to.have.length(1);
    });

    it('has no axe violations after it gave up', async () => {
      const { el, form } = await bookThrough([outcomeUnknown()]);
      await waitUntil(() => failure(form), 'no failure shown', { timeout: 6_000 });
      await settled(form);
      await expect(el).to.be.accessible();
    });
  });
});
