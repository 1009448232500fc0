import { waitUntil } from '@open-wc/testing';
import type { ClinicBookingForm } from '../../../widget/booking/booking-form.js';
import type { FakeBff } from './fake-bff.js';
import { aPatient, bookedResult, booked, clickIn, failureBox, goToStep, pickDay, pickTime, refused, settled, stepOf, typeInto } from './widget.js';

/** The states of the booking flow that walkBookingStates shows, in its order. */
export const BOOKING_STATES = [
  'the treatment list',
  'the dentist list',
  'the calendar',
  'a day and its times',
  'the details with errors',
  'the review',
  'the day and the time chosen',
  'the dentist chosen',
  'the treatment chosen',
  'a refused booking',
  'the confirmation',
] as const;
export type BookingState = (typeof BOOKING_STATES)[number];

/**
 * Walks the booking form (of a widget on `bff`, on its first step) through every state a patient can meet on the
 * way to a booking, and awaits `look` in each: each list before a choice, the calendar as it opens (its first
 * bookable day chosen, the times loading) and with another day chosen and its times loaded, the details' errors, the review; back to the first step, each choice shown chosen; then forward again,
 * a booking the BFF refuses (the failure box), and, sent again, the confirmation.
 */
export async function walkBookingStates(form: ClinicBookingForm, bff: FakeBff, look: (state: BookingState) => Promise<void>): Promise<void> {
  const seen: BookingState[] = [];
  const at = async (state: BookingState) => {
    await form.updateComplete;
    seen.push(state);
    await look(state);
  };
  // Loaded: while a day's times load, they show inert (the pane aria-busy).
  const slots = () => waitUntil(() => form.shadowRoot!.querySelector('.times[aria-busy="false"] .slots'), 'the day\'s times never showed');
  const submit = async () => {
    form.shadowRoot!.querySelector('form')!.requestSubmit();
    await form.updateComplete;
  };
  const patient = aPatient();

  await at('the treatment list');
  await clickIn(form, '[data-value="1"]');
  await at('the dentist list');
  await clickIn(form, '[data-value="2"]');
  await at('the calendar');
  await pickDay(form, patient.appointment_date);
  await slots();
  await at('a day and its times');
  await pickTime(form, patient.appointment_time);
  await submit();
  await waitUntil(() => form.shadowRoot!.querySelector('[aria-invalid="true"]'), 'the empty details showed no error');
  await at('the details with errors');
  await typeInto(form, 'patient_name', patient.patient_name);
  await typeInto(form, 'patient_phone', patient.patient_phone);
  await submit();
  if (stepOf(form) !== 'review') throw new Error('the details did not lead to the review');
  await at('the review');

  await goToStep(form, 'day');
  await slots();
  await at('the day and the time chosen');
  await goToStep(form, 'dentist');
  await at('the dentist chosen');
  await goToStep(form, 'treatment');
  await at('the treatment chosen');

  await clickIn(form, '[aria-pressed="true"]');
  await clickIn(form, '[aria-pressed="true"]');
  await pickTime(form, patient.appointment_time);
  await submit();
  let answered = 0;
  bff.on('POST /appointments/book', () => (answered++ === 0 ? refused(400, 'validation_error', 'Invalid request: appointment_date and appointment_time are in the past') : booked()));
  await submit();
  await failureBox(form);
  await settled(form);
  await at('a refused booking');
  await submit();
  await bookedResult(form);
  await at('the confirmation');

  if (seen.join() !== BOOKING_STATES.join()) throw new Error(`the walk saw ${seen.join(', ')}`);
}
