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
    await waitUntil(() => ready.has(el), 'clinic-booking:ready never came');
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

/** A control of the booking form by id (patient_name, appointment_date, treatment_id, …). */
export function control<T extends HTMLElement = HTMLInputElement>(form: ClinicBookingForm, id: string): T {
  const found = form.shadowRoot!.querySelector<T>(`#${id}`);
  if (!found) throw new Error(`no #${id} in the booking form`);
  return found;
}

/** Sets a field as typing would: the value, then input and change events. */
export async function typeInto(form: ClinicBookingForm, id: string, value: string): Promise<void> {
  const input = control<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(form, id);
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

/** Types each value into the field of that id, in order. */
export async function fillForm(form: ClinicBookingForm, values: Readonly<Record<string, string>>): Promise<void> {
  for (const [id, value] of Object.entries(values)) await typeInto(form, id, value);
}

/** Submits the booking form the way its submit button would. */
export async function submitForm(form: ClinicBookingForm): Promise<void> {
  form.shadowRoot!.querySelector('form')!.requestSubmit();
  await form.updateComplete;
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

export const booked = (appointmentId = 42, reference = REFERENCE) => ({
  status: 200,
  body: { success: true, message: 'Appointment booked successfully', data: { appointment_id: appointmentId, reference } },
});

export const refused = (status: number, error_code: string, message = 'refused') => ({
  status,
  body: { success: false, message, error_code },
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
