import type { TemplateResult } from 'lit';
import type { BookingFlow } from '../booking-flow.js';
import { renderChoices, type Choice } from './choices.js';

/** The treatment step: "Not sure yet", then each treatment with its length. */
export function renderTreatmentStep(flow: BookingFlow): TemplateResult {
  const { t } = flow;
  return renderChoices(flow, 'treatment_id', [
    ['', t.noTreatment],
    ...flow.host.treatments.map((x): Choice => [String(x.treatment_id), x.treatment_name, t.minutes(x.duration_minutes)]),
  ]);
}
