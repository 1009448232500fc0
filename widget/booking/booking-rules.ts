import { HONEYPOT_FIELD } from '../../contract/rules/bff-api.js';
import { isPhoneNumber } from '../../contract/rules/patterns.js';
import { isBlankPatientText, normalisePatientText, patientTextProblem, type PatientTextOptions } from '../../contract/rules/patient-text.js';
import type { BookingRequest } from '../api.js';
import type { Translation } from '../i18n/translation.js';

/** What the patient has typed; strings as in the inputs, ids as option values. */
export interface BookingDraft {
  patient_name: string;
  patient_phone: string;
  address: string;
  appointment_date: string;
  appointment_time: string;
  doctor_id: string;
  treatment_id: string;
  note: string;
  consent: boolean;
}

export type DraftField = keyof BookingDraft;
export type FieldErrors = Partial<Record<DraftField, string>>;

export const EMPTY_DRAFT: BookingDraft = {
  patient_name: '',
  patient_phone: '',
  address: '',
  appointment_date: '',
  appointment_time: '',
  doctor_id: '',
  treatment_id: '',
  note: '',
  consent: false,
};

export interface RuleContext {
  consentRequired: boolean;
  t: Translation;
}

/** The note alone may hold line breaks. */
const NOTE: PatientTextOptions = { multiline: true };

/** The shared patient text rule in the patient's words: one message for every kind of hidden character. */
function patientTextError(value: string, required: boolean, t: Translation, options?: PatientTextOptions): string | undefined {
  const problem = patientTextProblem(normalisePatientText(value, options), options);
  if (problem === 'blank') return required ? t.errRequired : undefined;
  return problem ? t.errHiddenCharacters : undefined;
}

/**
 * The browser-side check of the patient's details, mirroring the server's
 * rules so most mistakes are caught while typing. The day and time need no
 * check here: they are picked from the slots the clinic offers, and the
 * server stays the authority.
 */
export function validateDraft(draft: BookingDraft, context: RuleContext): FieldErrors {
  const { t } = context;
  const errors: FieldErrors = {};
  const checkText = (field: 'patient_name' | 'patient_phone' | 'address' | 'note', required: boolean, options?: PatientTextOptions) => {
    const problem = patientTextError(draft[field], required, t, options);
    if (problem) errors[field] = problem;
  };
  checkText('patient_name', true);
  checkText('patient_phone', true);
  checkText('address', false);
  checkText('note', false, NOTE);
  if (!errors.patient_phone && !isPhoneNumber(normalisePatientText(draft.patient_phone))) errors.patient_phone = t.errPhone;

  if (context.consentRequired && !draft.consent) errors.consent = t.errConsent;
  return errors;
}

/** The JSON body the BFF expects, with the honeypot the form keeps empty. */
export function bookingBody(draft: BookingDraft, honeypot: string): BookingRequest {
  const optionalId = (value: string) => (value ? Number(value) : undefined);
  const optionalText = (value: string, options?: PatientTextOptions) => {
    const text = normalisePatientText(value, options);
    return isBlankPatientText(text) ? undefined : text;
  };
  return {
    patient_name: normalisePatientText(draft.patient_name),
    patient_phone: normalisePatientText(draft.patient_phone),
    address: optionalText(draft.address),
    appointment_date: draft.appointment_date,
    appointment_time: draft.appointment_time,
    doctor_id: optionalId(draft.doctor_id),
    treatment_id: optionalId(draft.treatment_id),
    note: optionalText(draft.note, NOTE),
    [HONEYPOT_FIELD]: honeypot,
  };
}
