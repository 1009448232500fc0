import type { TemplateResult } from 'lit';
import type { BookingFlow } from '../booking-flow.js';
import { renderChoices, type Choice } from './choices.js';

/** The dentist step: "Any dentist", then each dentist with their specialisation. */
export function renderDentistStep(flow: BookingFlow): TemplateResult {
  return renderChoices(flow, 'doctor_id', [
    ['', flow.t.anyDentist],
    ...flow.host.dentists.map((d): Choice => [String(d.doctor_id), d.doctor_name, d.specialization]),
  ]);
}
