import type { TemplateResult } from 'lit';
import type { BookingFlow } from '../booking-flow.js';
import { treatmentFacts } from '../choices-summary.js';
import { renderChoices, type Choice } from './choices.js';

/** The treatment step: "Not sure yet", then each treatment with its length and fee. */
export function renderTreatmentStep(flow: BookingFlow): TemplateResult {
  const { t, lang } = flow;
  const context = { t, lang, currency: flow.host.currency };
  return renderChoices(flow, 'treatment_id', [
    ['', t.noTreatment],
    ...flow.host.treatments.map((x): Choice => [String(x.treatment_id), x.treatment_name, treatmentFacts(x, context)]),
  ]);
}
