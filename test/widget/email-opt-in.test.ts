import { expect, html, waitUntil } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import type { ClinicBooking } from '../../widget/clinic-booking.js';
import type { ClinicBookingForm } from '../../widget/booking/booking-form.js';
import { PATIENT_MAIL_FIELDS } from '../../contract/bff.js';
import { installFakeBff, type FakeBff } from './support/fake-bff.js';
import { clinicFixtures, uniqueApiBase } from './support/fixtures.js';
import {
  aPatient,
  booked,
  bookedResult,
  clickIn,
  control,
  deepActiveElement,
  draftKey,
  fixtureReady,
  formOf,
  markup,
  postsTo,
  settled,
  stepOf,
  submitForm,
  typeInto,
  walkToDetails,
} from './support/widget.js';

const BOOK = 'POST /appointments/book';
const ADDRESS = 'jane.patient@example.com';
const page = window as unknown as { dataLayer?: Record<string, unknown>[] };

describe('<clinic-booking> confirmation by e-mail', () => {
  let bff: FakeBff;
  afterEach(() => {
    bff.restore();
    delete page.dataLayer;
  });

  /** The widget on a site whose BFF sends patients e-mail (`offered`), or not. */
  async function render(offered: boolean, template?: (api: string) => TemplateResult): Promise<{ el: ClinicBooking; form: ClinicBookingForm }> {
    bff = installFakeBff(clinicFixtures({ emailOffered: offered }), uniqueApiBase());
    bff.on(BOOK, () => booked());
    const el = await fixtureReady(template?.(bff.apiBase) ?? html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`);
    return { el, form: formOf(el) };
  }

  const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim();
  const inForm = (form: ClinicBookingForm, selector: string) => form.shadowRoot!.querySelector(selector);
  const bookings = () => postsTo(bff.calls, '/appointments/book');
  const body = () => bookings()[0]!.body as Record<string, unknown>;

  /** Name, phone and (when given) the box ticked with this address typed, on the details step. */
  async function fillDetails(form: ClinicBookingForm, address?: string): Promise<void> {
    const patient = aPatient();
    await walkToDetails(form, patient);
    await typeInto(form, 'patient_name', patient.patient_name);
    await typeInto(form, 'patient_phone', patient.patient_phone);
    if (address === undefined) return;
    await clickIn(form, '#email_consent');
    await typeInto(form, 'patient_email', address);
  }

  /** From the details to the review and on to the booking. */
  async function bookIt(form: ClinicBookingForm): Promise<HTMLElement> {
    await submitForm(form);
    expect(stepOf(form)).to.equal('review');
    await submitForm(form);
    return bookedResult(form);
  }

  it('is not offered where the site sends no e-mail', async () => {
    const { form } = await render(false);
    await fillDetails(form);
    expect(inForm(form, '#email_consent')).to.equal(null);
    expect(inForm(form, '#patient_email')).to.equal(null);
  });

  it('is not offered by a BFF whose content names no offers', async () => {
    const fixtures = clinicFixtures({ emailOffered: true });
    delete (fixtures['/content'] as { offers?: unknown }).offers;
    bff = installFakeBff(fixtures, uniqueApiBase());
    const form = formOf(await fixtureReady(html`<clinic-booking api-base=${bff.apiBase} sections="booking"></clinic-booking>`));
    await walkToDetails(form);
    expect(inForm(form, '#email_consent')).to.equal(null);
  });

  it('is offered in the dialog of mode="button" too, whose widget loads the content (and its offers) for the form', async () => {
    const { el, form } = await render(true, (api) => html`<clinic-booking api-base=${api} mode="button"></clinic-booking>`);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="open-button"]')!.click();
    await walkToDetails(form);
    expect(control(form, 'email_consent').checked).to.equal(false);
    expect(bff.calls.filter((call) => call.path === '/content')).to.have.length(1);
  });

  it('is offered as a box of its own, unticked, apart from the privacy consent, the address asked for only once it is ticked', async () => {
    const { form } = await render(true, (api) => html`<clinic-booking api-base=${api} sections="booking" privacy-url="/privacy"></clinic-booking>`);
    await walkToDetails(form);
    const box = control(form, 'email_consent');
    expect(box.type).to.equal('checkbox');
    expect(box.checked).to.equal(false);
    expect(box.required).to.equal(false);
    expect(text(inForm(form, 'label[for="email_consent"]'))).to.equal('Send me a confirmation and a reminder by email');
    expect(control(form, 'consent').checked).to.equal(false);
    expect(inForm(form, '#patient_email')).to.equal(null);

    await clickIn(form, '#email_consent');

    const field = control(form, 'patient_email');
    expect([field.type, field.autocomplete, field.required]).to.deep.equal(['email', 'email', true]);
    expect(text(inForm(form, 'label[for="patient_email"]'))).to.match(/^Email \*/);
    expect(control(form, 'consent').checked).to.equal(false);
  });

  it('sends none of its fields with the box unticked, the address typed before it was unticked included', async () => {
    const { form } = await render(true);
    await fillDetails(form, ADDRESS);
    await clickIn(form, '#email_consent');
    expect(inForm(form, '#patient_email')).to.equal(null);

    await bookIt(form);

    expect(bookings()).to.have.length(1);
    for (const field of PATIENT_MAIL_FIELDS) expect(body(), field).not.to.have.property(field);
  });

  it('refuses a ticked box without an address or with a wrong one, with the error tied to the field, and sends nothing', async () => {
    const { form } = await render(true);
    await fillDetails(form, '');
    await submitForm(form);
    expect(stepOf(form)).to.equal('details');
    expect(text(inForm(form, '#patient_email-error'))).to.equal('Please fill this in.');

    await typeInto(form, 'patient_email', 'jane@example');
    await submitForm(form);

    const field = control(form, 'patient_email');
    expect(text(inForm(form, '#patient_email-error'))).to.equal('Enter an email address, e.g. name@example.com.');
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    expect(field.getAttribute('aria-describedby')).to.equal('patient_email-error');
    expect(deepActiveElement()?.id).to.equal('patient_email');
    expect(stepOf(form)).to.equal('details');
    expect(bookings()).to.have.length(0);
  });

  it('focuses a wrong address before the unticked privacy consent below it, as the form orders them', async () => {
    const { form } = await render(true, (api) => html`<clinic-booking api-base=${api} sections="booking" privacy-url="/privacy"></clinic-booking>`);
    await fillDetails(form, 'jane@example');
    await submitForm(form);

    expect(inForm(form, '#patient_email-error')).not.to.equal(null);
    expect(inForm(form, '#consent-error')).not.to.equal(null);
    expect(deepActiveElement()?.id).to.equal('patient_email');
  });

  it('lets the error go with the box unticked', async () => {
    const { form } = await render(true);
    await fillDetails(form, 'jane@');
    await submitForm(form);
    expect(inForm(form, '#patient_email-error')).not.to.equal(null);

    // As a pointer does: the box takes focus (the address is left, still wrong), then it changes.
    control(form, 'email_consent').focus();
    await clickIn(form, '#email_consent');

    expect(form.flow.errors.patient_email).to.equal(undefined);
    expect(text(inForm(form, '#form-status'))).to.equal('');
    await submitForm(form);
    expect(stepOf(form)).to.equal('review');
  });

  it("sends the address, the consent, the widget's language and the page without its query or fragment with the box ticked", async () => {
    const { form } = await render(true, (api) => html`<clinic-booking api-base=${api} sections="booking" lang="de-AT"></clinic-booking>`);
    history.replaceState(null, '', `${location.pathname}${location.search}#somewhere`);
    try {
      await fillDetails(form, `  ${ADDRESS} `);
      await bookIt(form);
    } finally {
      history.replaceState(null, '', `${location.pathname}${location.search}`);
    }

    expect(body()).to.include({ patient_email: ADDRESS, email_consent: true, language: 'de', page_url: `${location.origin}${location.pathname}` });
    expect(String(body().page_url)).not.to.match(/[?#]/);
  });

  it('writes in English for a page in a language the widget does not speak', async () => {
    const { form } = await render(true, (api) => html`<clinic-booking api-base=${api} sections="booking" lang="pt-BR"></clinic-booking>`);
    await fillDetails(form, ADDRESS);
    await bookIt(form);
    expect(body().language).to.equal('en');
  });

  it('shows the address on the review and says on the confirmation that the confirmation goes there', async () => {
    const { form } = await render(true);
    await fillDetails(form, ADDRESS);
    await submitForm(form);
    expect(text(inForm(form, 'dl'))).to.contain(`Email${ADDRESS}`);

    await submitForm(form);
    const result = await bookedResult(form);

    expect(text(result)).to.contain(`We will send the confirmation to ${ADDRESS}.`);
  });

  it('keeps the address in the draft as it keeps the phone, until the booking is made', async () => {
    const { form } = await render(true);
    await fillDetails(form, ADDRESS);
    expect(JSON.parse(sessionStorage.getItem(draftKey(bff.apiBase))!).draft).to.include({ email_consent: true, patient_email: ADDRESS });

    await bookIt(form);

    expect(sessionStorage.getItem(draftKey(bff.apiBase))).to.equal(null);
  });

  it('never hands the address to analytics', async () => {
    const { form } = await render(true, (api) => html`<clinic-booking api-base=${api} sections="booking" analytics="datalayer"></clinic-booking>`);
    await fillDetails(form, ADDRESS);
    await bookIt(form);
    await settled(form);

    await waitUntil(() => page.dataLayer?.some((entry) => entry.event === 'clinic_booking_booked'), 'no booked event pushed');
    expect(JSON.stringify(page.dataLayer)).not.to.contain('example.com');
  });

  it('has no axe violations with the box ticked, and with the error shown', async () => {
    const { el, form } = await render(true, (api) => html`<clinic-booking api-base=${api} sections="booking" privacy-url="/privacy"></clinic-booking>`);
    await fillDetails(form, '');
    await expect(el).to.be.accessible();

    await typeInto(form, 'patient_email', 'not an address');
    await submitForm(form);

    expect(markup(inForm(form, '#patient_email-error'))).to.contain('Enter an email address');
    await expect(el).to.be.accessible();
  });
});
