import type { TemplateResult } from 'lit';
import { formatDate, formatTime } from '../../format.js';
import { detailList } from '../appointment-view.js';
import type { BookingFlow } from '../booking-flow.js';

/** The review step: every choice and detail, to check before booking. */
export function renderReviewStep(flow: BookingFlow): TemplateResult {
  const { t, lang, draft } = flow;
  const dentist = flow.host.dentists.find((d) => String(d.doctor_id) === draft.doctor_id);
  return detailList([
    [t.treatment, flow.treatment?.treatment_name ?? t.noTreatment],
    [t.dentist, dentist?.doctor_name ?? t.anyDentist],
    [t.date, draft.appointment_date && formatDate(draft.appointment_date, lang)],
    [t.time, draft.appointment_time && formatTime(draft.appointment_time, lang)],
    [t.patientName, draft.patient_name],
    [t.patientPhone, draft.patient_phone],
    [t.patientAddress, draft.address],
    [t.note, draft.note],
  ]);
}
