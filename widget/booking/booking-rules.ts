import { HONEYPOT_FIELD } from '../../contract/rules/bff-api.js';
import {
  checkOpeningHours,
  type OpeningHours,
  type OpeningHoursDay,
  type OpeningHoursVerdict,
} from '../../contract/rules/opening-hours.js';
import { isCalendarDate, isPhoneNumber } from '../../contract/rules/patterns.js';
import { isBlankPatientText, normalisePatientText, patientTextProblem, type PatientTextOptions } from '../../contract/rules/patient-text.js';
import type { BookingRequest } from '../api.js';
import { localDayName } from '../format.js';
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
  openingHours: OpeningHours | undefined;
  /** The visitor's today and time now, YYYY-MM-DD and HH:MM. */
  today: string;
  now: string;
  consentRequired: boolean;
  lang: string;
  t: Translation;
}

/**
 * The shared opening-hours verdict for the chosen date and time, or undefined
 * while no date is chosen. Settings without opening_hours close every day, as
 * a day left out of them is closed. `time` may still be empty: whether the day
 * is open, and its hours, do not depend on it.
 */
export function openingOn(date: string, time: string, openingHours: OpeningHours | undefined): OpeningHoursVerdict | undefined {
  return isCalendarDate(date) ? checkOpeningHours(openingHours ?? {}, date, time) : undefined;
}

/** The day's hours from a verdict, or undefined when the clinic is closed that day. */
export function dayHours(verdict: OpeningHoursVerdict): OpeningHoursDay | undefined {
  return verdict.open || verdict.reason !== 'closed_day' ? verdict.hours : undefined;
}

/** The verdict's reason code in the patient's words, on the field the patient should change. */
function openingHoursError(verdict: OpeningHoursVerdict, t: Translation, lang: string): FieldErrors {
  if (verdict.open) return {};
  switch (verdict.reason) {
    case 'closed_day':
      return { appointment_date: t.errClosedDay(localDayName(verdict.day, lang)) };
    case 'outside_hours':
    case 'ends_after_closing': // not reached yet: the form passes no treatment length, so only the server checks the end
      return { appointment_time: t.errTimeOutside(verdict.hours.open, verdict.hours.close) };
  }
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
 * The browser-side check of a booking, mirroring the server's rules so most
 * mistakes are caught while typing; the server stays the authority.
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

  const date = draft.appointment_date;
  const time = draft.appointment_time;
  if (!date) errors.appointment_date = t.errRequired;
  else if (date < context.today) errors.appointment_date = t.errDatePast;
  if (!time) errors.appointment_time = t.errRequired;

  const verdict = openingOn(date, time, context.openingHours);
  if (verdict) {
    const problem = openingHoursError(verdict, t, context.lang);
    // A date already wrong for another reason keeps that message; a time is judged only once given.
    if (problem.appointment_date && !errors.appointment_date) errors.appointment_date = problem.appointment_date;
    if (time && problem.appointment_time) errors.appointment_time = problem.appointment_time;
    else if (time && verdict.open && date === context.today && time <= context.now) errors.appointment_time = t.errDatePast;
  }
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
