import type { TemplateResult } from 'lit';
import type { BookingFlow } from '../booking-flow.js';
import { choiceDetails, renderSummary } from '../choices-summary.js';

/** The review step: the summary of the steps before it, the patient's details added, to check before booking. */
export function renderReviewStep(flow: BookingFlow): TemplateResult {
  const { t, lang, draft } = flow;
  return renderSummary([
    ...choiceDetails(flow.choices(), { t, lang, currency: flow.host.currency }),
    [t.patientName, draft.patient_name],
    [t.patientPhone, draft.patient_phone],
    [t.patientAddress, draft.address],
    [t.note, draft.note],
    [t.email, flow.host.emailOffered && draft.email_consent ? draft.patient_email : ''],
  ]);
}
