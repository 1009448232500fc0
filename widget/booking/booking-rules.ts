import type { PatientLanguage } from '../../contract/bff.js';
import { HONEYPOT_FIELD } from '../../contract/rules/bff-api.js';
import { EMAIL_ADDRESS_PATTERN, isPhoneNumber } from '../../contract/rules/patterns.js';
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
  /** "Send me a confirmation and a reminder by e-mail", ticked; counts only where the site offers it. */
  email_consent: boolean;
  /** Where to: kept like the phone (draft-storage.ts), and sent only with the box ticked. */
  patient_email: string;
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
  email_consent: false,
  patient_email: '',
};

export interface RuleContext {
  consentRequired: boolean;
  /** The patient ticked the e-mail box where the site offers it: the address is then required. */
  emailWanted: boolean;
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

  // Its length needs no check: the input's maxlength is the BFF's bound.
  const email = draft.patient_email.trim();
  if (context.emailWanted && !EMAIL_ADDRESS_PATTERN.test(email)) errors.patient_email = email ? t.errEmail : t.errRequired;
  // In the form's order, the consent last: a refused submit focuses the first field named here.
  if (context.consentRequired && !draft.consent) errors.consent = t.errConsent;
  return errors;
}

/**
 * The JSON body the BFF expects, with the honeypot the form keeps empty. With `mailIn` (the patient
 * ticked the e-mail box where it is offered), the fields the BFF keeps for the confirmation and
 * reminder: the address, the consent, that language, and this page without its query or fragment.
 */
export function bookingBody(draft: BookingDraft, honeypot: string, mailIn?: PatientLanguage): BookingRequest {
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
    ...(mailIn && { patient_email: draft.patient_email.trim(), email_consent: true, language: mailIn, page_url: location.origin + location.pathname }),
    [HONEYPOT_FIELD]: honeypot,
  };
}
