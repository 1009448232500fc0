/**
 * Helpers for driving <clinic-booking> in tests: mount it and wait for its
 * content, reach into its shadow roots, type into the booking form the way
 * an input event would, and build the BFF's answers.
 */
import { fixture, waitUntil } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import { ClinicBooking } from '../../../widget/clinic-booking.js';
import type { ClinicBookingForm } from '../../../widget/booking/booking-form.js';
import type { ClinicBookingStatus } from '../../../widget/status/status-lookup.js';
import type { RecordedCall } from './fake-bff.js';

/**
 * Renders the template (a <clinic-booking>, or an element around one) and
 * resolves with the widget once it has announced clinic-booking:ready.
 */
export async function fixtureReady(template: TemplateResult): Promise<ClinicBooking> {
  const ready = new Set<EventTarget>();
  const record = (event: Event) => ready.add(event.target!);
  document.addEventListener('clinic-booking:ready', record);
  try {
    const root = await fixture<HTMLElement>(template);
    const el = root instanceof ClinicBooking ? root : root.querySelector('clinic-booking');
    if (!el) throw new Error('the template holds no <clinic-booking>');
    // Ready can wait for a language pack, a module the test server builds on its first request: on a busy machine,
    // three engines at once, that took more than waitUntil's 1 s. The bound only ends a test that fails.
    await waitUntil(() => ready.has(el), 'clinic-booking:ready never came', { timeout: 5_000 });
    await el.updateComplete;
    const form = el.shadowRoot!.querySelector('clinic-booking-form');
    if (form) await form.updateComplete;
    return el;
  } finally {
    document.removeEventListener('clinic-booking:ready', record);
  }
}

export const shadowOf = (el: ClinicBooking): ShadowRoot => el.shadowRoot!;

export function formOf(el: ClinicBooking): ClinicBookingForm {
  const form = el.shadowRoot!.querySelector('clinic-booking-form');
  if (!form) throw new Error('no <clinic-booking-form> rendered');
  return form;
}

export function statusOf(el: ClinicBooking): ClinicBookingStatus {
  const status = el.shadowRoot!.querySelector('clinic-booking-status');
  if (!status) throw new Error('no <clinic-booking-status> rendered');
  return status;
}

/** A control of the booking form by id (patient_name, note, honeypot, …) on the step shown now. */
export function control<T extends HTMLElement = HTMLInputElement>(form: ClinicBookingForm, id: string): T {
  const found = form.shadowRoot!.querySelector<T>(`#${id}`);
  if (!found) throw new Error(`no #${id} in the booking form (step: ${stepHeading(form)})`);
  return found;
}

/** The steps of the form, in order, as fillForm and goToStep name them. */
export const STEPS = ['treatment', 'dentist', 'day', 'details', 'review'] as const;
export type StepName = (typeof STEPS)[number];

/** The heading of the step shown ("Step 2 of 6 Dentist"), whitespace collapsed. */
export const stepHeading = (form: ClinicBookingForm): string =>
  form.shadowRoot!.querySelector('#step-heading')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

/**
 * The step shown now, by the number in its heading: in Latin digits, or in Arabic-Indic ones, which an engine whose
 * ICU is older than today's CLDR (WebKitGTK on Debian 12) gives for lang="ar".
 */
export function stepOf(form: ClinicBookingForm): StepName | undefined {
  const n = /[0-9\u0660-\u0669]+/.exec(stepHeading(form))?.[0].replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x660));
  return n ? STEPS[Number(n) - 1] : undefined;
}

/** Clicks the form's element matching selector (it must be there) and waits for the form. */
export async function clickIn(form: ClinicBookingForm, selector: string): Promise<void> {
  const target = form.shadowRoot!.querySelector<HTMLElement>(selector);
  if (!target) throw new Error(`no ${selector} in the booking form (step: ${stepHeading(form)})`);
  target.click();
  await form.updateComplete;
}

/** A button of the form by its text. */
export function buttonNamed(form: ClinicBookingForm, text: string): HTMLButtonElement {
  const found = [...form.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === text);
  if (!found) throw new Error(`no button "${text}" (step: ${stepHeading(form)})`);
  return found;
}

/** The value of the pressed choice on the step shown (treatment or dentist; '' for "Not sure yet" / "Any dentist"). */
export const pressed = (form: ClinicBookingForm): string | null | undefined =>
  form.shadowRoot!.querySelector('.choices [aria-pressed="true"]')?.getAttribute('data-value');

/** The step's "Back" button (the nav row's only type=button), in any language. */
export const BACK = 'form > .row > button[type="button"]';

/** Goes back with "Back" (never forward) until that step shows. */
export async function goToStep(form: ClinicBookingForm, step: StepName): Promise<void> {
  for (let i = 0; i < STEPS.length && stepOf(form) !== step; i++) await clickIn(form, BACK);
  if (stepOf(form) !== step) throw new Error(`never reached the ${step} step (at ${stepHeading(form)})`);
}

/** The calendar's "Next month" button (the month row's last), in any language. */
const NEXT_MONTH = '.month > button:last-of-type';

/** On the day step: shows the month of `date` with "Next month" and clicks the day. */
export async function pickDay(form: ClinicBookingForm, date: string): Promise<void> {
  for (let i = 0; i < 14 && !form.shadowRoot!.querySelector(`[data-date="${date}"]`); i++) {
    await clickIn(form, NEXT_MONTH);
  }
  await clickIn(form, `[data-date="${date}"]`);
}

/**
 * On the day step: waits until the chosen day's times have loaded. While they load, the same headers
 * and times show, inert (the pane aria-busy), so that nothing moves when they come.
 */
export async function timesLoaded(form: ClinicBookingForm): Promise<void> {
  await waitUntil(() => form.shadowRoot!.querySelector('.times[aria-busy="false"]'), `the times never loaded (step: ${stepHeading(form)})`);
}

/** The period (0 morning, 1 afternoon from 12:00, 2 evening from 17:00) whose header shows the time at `time` (HH:MM). */
export const periodOf = (time: string): number => [12, 17].filter((hour) => Number(time.slice(0, 2)) >= hour).length;

/**
 * On the day step, once a day is chosen: waits for its times (loaded, no longer inert), opens the
 * period of `time` (HH:MM) with its header as a patient would when another is open, and clicks the time.
 */
export async function pickTime(form: ClinicBookingForm, time: string): Promise<void> {
  const root = form.shadowRoot!;
  await timesLoaded(form);
  if (!root.querySelector(`.times [data-time="${time}"]`)) await clickIn(form, `#period-${periodOf(time)}`);
  await waitUntil(() => root.querySelector(`.times [data-time="${time}"]`), `no slot ${time} (step: ${stepHeading(form)})`);
  await clickIn(form, `.times [data-time="${time}"]`);
}

const CHOICES: Partial<Record<string, StepName>> = { treatment_id: 'treatment', doctor_id: 'dentist', appointment_date: 'day', appointment_time: 'day' };

/**
 * Sets a field as the patient would: a choice (treatment_id, doctor_id: the
 * step's button; appointment_date: the calendar; appointment_time: the slot)
 * goes back to its step and clicks, which moves on to the next step; a
 * detail (name, phone, address, note) goes back to the details step if need
 * be and types: the value, then input and change events.
 */
export async function typeInto(form: ClinicBookingForm, id: string, value: string): Promise<void> {
  const step = CHOICES[id];
  if (step) {
    await goToStep(form, step);
    if (id === 'appointment_date') return pickDay(form, value);
    if (id === 'appointment_time') return pickTime(form, value);
    return clickIn(form, `[data-value="${value}"]`);
  }
  if (!form.shadowRoot!.querySelector(`#${id}`)) {
    if (STEPS.indexOf(stepOf(form)!) < STEPS.indexOf('details')) await walkToDetails(form);
    else await goToStep(form, 'details');
  }
  const input = control<HTMLInputElement | HTMLTextAreaElement>(form, id);
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await form.updateComplete;
}

// A type, not an interface, so that it is assignable to Record<string, string>.
export type Patient = {
  patient_name: string;
  patient_phone: string;
  appointment_date: string;
  appointment_time: string;
};

/** From the first step to the details: the choices in `values` (or the defaults of fillForm); returns the other values. */
export async function walkToDetails(form: ClinicBookingForm, values: Readonly<Record<string, string>> = {}): Promise<Record<string, string>> {
  const { treatment_id = '', doctor_id = '', appointment_date = aPatient().appointment_date, appointment_time = '10:00', ...details } = values;
  if (stepOf(form) !== 'treatment') await goToStep(form, 'treatment');
  await clickIn(form, `[data-value="${treatment_id}"]`);
  await clickIn(form, `[data-value="${doctor_id}"]`);
  await pickDay(form, appointment_date);
  await pickTime(form, appointment_time);
  return details;
}

/**
 * Walks the steps from the first: the treatment and the dentist given (else
 * "Not sure yet" and "Any dentist"), the day and the time (else aPatient's),
 * then types each detail given and continues to the review.
 */
export async function fillForm(form: ClinicBookingForm, values: Readonly<Record<string, string>>): Promise<void> {
  const details = await walkToDetails(form, values);
  for (const [id, value] of Object.entries(details)) await typeInto(form, id, value);
  form.shadowRoot!.querySelector('form')!.requestSubmit();
  await form.updateComplete;
}

/**
 * Submits the form the way its button would: on the review, it books; on the
 * details, it goes on to the review when the details are valid, and then books.
 */
export async function submitForm(form: ClinicBookingForm): Promise<void> {
  const before = stepOf(form);
  form.shadowRoot!.querySelector('form')!.requestSubmit();
  await form.updateComplete;
  await new Promise((resolve) => setTimeout(resolve));
  await form.updateComplete;
  if (before === 'details' && stepOf(form) === 'review') {
    form.shadowRoot!.querySelector('form')!.requestSubmit();
    await form.updateComplete;
  }
}

/** The booked result of the form, once there. */
export async function bookedResult(form: ClinicBookingForm): Promise<HTMLElement> {
  await waitUntil(() => form.shadowRoot!.querySelector('[part="booking-result"]'), 'no booking result shown');
  return form.shadowRoot!.querySelector<HTMLElement>('[part="booking-result"]')!;
}

/** The form's failure box (role=alert), once there. */
export async function failureBox(form: ClinicBookingForm): Promise<HTMLElement> {
  await waitUntil(() => form.shadowRoot!.querySelector('[part="booking-error"]'), 'no booking failure shown');
  return form.shadowRoot!.querySelector<HTMLElement>('[part="booking-error"]')!;
}

/** Waits until the form has no booking in flight (its submit button is enabled again). */
export async function settled(form: ClinicBookingForm): Promise<void> {
  await waitUntil(() => {
    const button = form.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]');
    return !button || !button.disabled;
  }, 'the booking never settled');
  await form.updateComplete;
}

const pad = (n: number) => String(n).padStart(2, '0');
export const isoDate = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The first date at least `minDaysAhead` days from today (device time) that falls on `weekday`. */
export function nextDate(weekday: string, minDaysAhead = 2): string {
  const date = new Date();
  date.setHours(12, 0, 0, 0);
  date.setDate(date.getDate() + minDaysAhead);
  while (WEEKDAYS[date.getDay()] !== weekday) date.setDate(date.getDate() + 1);
  return isoDate(date);
}

export function daysFromToday(days: number): string {
  const date = new Date();
  date.setHours(12, 0, 0, 0);
  date.setDate(date.getDate() + days);
  return isoDate(date);
}

/** Today's English day name on this device, as the widget computes it. */
export const todayName = () => WEEKDAYS[new Date().getDay()]!;

/** A valid booking for an open weekday of the fixture clinic. */
export function aPatient(overrides: Partial<Patient> = {}): Patient {
  return {
    patient_name: 'Jane Patient',
    patient_phone: '+44 20 7946 0958',
    appointment_date: nextDate('Tuesday'),
    appointment_time: '10:00',
    ...overrides,
  };
}

/** A reference shaped like the BFF's (54 base64url characters). */
export const REFERENCE = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEfGhIjKlMnOp';

/** The BFF's booking answer: the reference and the dentist, never the clinic system's appointment id. */
export const booked = (reference = REFERENCE) => ({
  status: 200,
  body: { success: true, message: 'Appointment booked successfully', data: { reference, doctor_id: null } },
});

/** The BFF's error answer; `reason` names why a booking was refused (400 validation_error), as the BFF's body does. */
export const refused = (status: number, error_code: string, message = 'refused', reason?: string) => ({
  status,
  body: { success: false, message, error_code, ...(reason === undefined ? {} : { reason }) },
});

export const postsTo = (calls: RecordedCall[], path: string) => calls.filter((call) => call.method === 'POST' && call.path === path);

export const draftKey = (apiBase: string) => `clinic-booking:draft:${apiBase}`;

/** A promise and its resolver, to hold a BFF answer back until the test lets it go. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A node as its markup, for assertions. When a chai assertion that holds a DOM
 * node fails, the test runner cannot serialise the node and loses the browser;
 * tests compare markup instead, and a failure then prints the offending HTML.
 */
export const markup = (node: Node | null | undefined): string | null =>
  node instanceof Element ? node.outerHTML : node ? node.textContent : null;

export const markupAll = (nodes: Iterable<Node>): (string | null)[] => [...nodes].map(markup);

/** Every element matching selector in root and in every shadow root below it. */
export function deepQueryAll(root: ParentNode, selector: string): Element[] {
  const found = [...root.querySelectorAll(selector)];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) found.push(...deepQueryAll(el.shadowRoot, selector));
  return found;
}

/** The text of root and of every shadow root below it. */
export function deepText(root: ParentNode): string {
  let text = root.textContent ?? '';
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) text += ` ${deepText(el.shadowRoot)}`;
  return text;
}

/** The element that has focus, looking through shadow roots. */
export function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}
