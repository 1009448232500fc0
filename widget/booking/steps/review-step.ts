import type { TemplateResult } from 'lit';
import { detailList } from '../appointment-view.js';
import type { BookingFlow } from '../booking-flow.js';
import { choiceDetails } from '../choices-summary.js';

/** The review step: every choice (the treatment with its length and fee) and detail, to check before booking. */
export function renderReviewStep(flow: BookingFlow): TemplateResult {
  const { t, lang, draft } = flow;
  return detailList([
    ...choiceDetails(flow.choices(), { t, lang, currency: flow.host.currency }),
    [t.patientName, draft.patient_name],
    [t.patientPhone, draft.patient_phone],
    [t.patientAddress, draft.address],
    [t.note, draft.note],
    [t.email, flow.host.emailOffered && draft.email_consent ? draft.patient_email : ''],
  ]);
}
