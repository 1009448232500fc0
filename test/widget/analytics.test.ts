import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { BookedDetail, ClinicBooking } from '../../widget/clinic-booking.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import { aPatient, booked, bookedResult, fillForm, fixtureReady, formOf, refused, REFERENCE, submitForm } from './support/widget.js';

const page = window as unknown as { dataLayer?: Record<string, unknown>[] };

describe('<clinic-booking analytics="datalayer">', () => {
  let bff: FakeBff;
  beforeEach(() => delete page.dataLayer);
  afterEach(() => {
    bff.restore();
    delete page.dataLayer;
  });

  /** Books through the form, with the page listening to the DOM event too. */
  async function book(analytics: string, details = false) {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on('POST /appointments/book', () => booked());
    const el = await fixtureReady(
      html`<clinic-booking api-base=${bff.apiBase} sections="booking" analytics=${analytics} ?analytics-details=${details}></clinic-booking>`,
    );
    let heard: BookedDetail | undefined;
    el.addEventListener('clinic-booking:booked', (event) => (heard = event.detail));
    const patient = aPatient({ patient_name: 'Private Person', patient_phone: '+44 7700 900123' });
    await fillForm(formOf(el), { ...patient, treatment_id: '2', doctor_id: '1' });
    await submitForm(formOf(el));
    await bookedResult(formOf(el));
    return { patient, heard, pushed: page.dataLayer?.find((entry) => entry.event === 'clinic_booking_booked') };
  }

  it('pushes clinic_booking_ready with the sections shown, creating dataLayer when the page has none', async () => {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="status treatments" analytics="datalayer"></clinic-booking>`);
    expect(page.dataLayer).to.deep.equal([{ event: 'clinic_booking_ready', sections: ['status', 'treatments'] }]);
  });

  it("keeps the page's own dataLayer entries and appends to them", async () => {
    page.dataLayer = [{ event: 'gtm.js' }];
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="status" analytics="datalayer"></clinic-booking>`);
    expect(page.dataLayer.map((entry) => entry.event)).to.deep.equal(['gtm.js', 'clinic_booking_ready']);
  });

  it('pushes only that a booking happened by default: no date, time, treatment, dentist or reference', async () => {
    const { patient, pushed } = await book('datalayer');
    expect(Object.keys(pushed!)).to.deep.equal(['event']);
    const everything = JSON.stringify(page.dataLayer);
    for (const absent of [patient.appointment_date, patient.appointment_time, '"date"', '"time"', '"treatment_id"', '"doctor_id"', REFERENCE, 'Private', '900123']) {
      expect(everything).not.to.contain(absent);
    }
  });

  it("keeps the booking's details in the DOM event for the page's own scripts", async () => {
    const { patient, heard } = await book('datalayer');
    expect(heard).to.deep.equal({ reference: REFERENCE, date: patient.appointment_date, time: patient.appointment_time, treatment_id: 2, doctor_id: 1 });
  });

  it('adds date, time, treatment and dentist with analytics-details, never the reference, name or phone', async () => {
    const { patient, pushed } = await book('datalayer', true);
    expect(pushed).to.deep.equal({
      event: 'clinic_booking_booked',
      date: patient.appointment_date,
      time: patient.appointment_time,
      treatment_id: 2,
      doctor_id: 1,
    });
    const everything = JSON.stringify(page.dataLayer);
    for (const personal of [REFERENCE, 'Private', '900123', patient.patient_phone]) expect(everything).not.to.contain(personal);
  });

  it('reflects analytics-details as the analyticsDetails property', async () => {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    const el = await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="status" analytics="datalayer" analytics-details></clinic-booking>`);
    expect(el.analyticsDetails).to.equal(true);
    el.removeAttribute('analytics-details');
    expect(el.analyticsDetails).to.equal(false);
  });

  it('pushes clinic_booking_error with kind, status and code only, analytics-details or not', async () => {
    bff = installFakeBff(clinicFixtures(), uniqueApiBase());
    bff.on('GET /content', () => refused(503, 'upstream_unavailable', 'The clinic system is unavailable'));
    await fixture<ClinicBooking>(html`<clinic-booking api-base=${bff.apiBase} analytics="datalayer" analytics-details></clinic-booking>`);
    await waitUntil(() => page.dataLayer?.length, 'nothing pushed');
    expect(page.dataLayer).to.deep.equal([{ event: 'clinic_booking_error', kind: 'load', status: 503, code: 'upstream_unavailable' }]);
  });

  it('pushes nothing without the analytics attribute, even with analytics-details', async () => {
    await book('', true);
    expect(page.dataLayer).to.equal(undefined);
  });
});
