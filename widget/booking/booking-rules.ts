import type { OpeningHoursEntry } from '../../contract/index.js';
import type { DayName } from '../../contract/rules/days.js';
import { dayNameOf } from '../../contract/rules/opening-hours.js';
import { minutesOf } from '../../contract/rules/clinic-time.js';
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

/** The same phone rule as the server's contract: phone characters and at least 5 digits. */
const PHONE = /^\+?[0-9 ()./-]{5,}$/;

export interface RuleContext {
  openingHours: Partial<Record<DayName, OpeningHoursEntry>> | undefined;
  /** The visitor's today and time now, YYYY-MM-DD and HH:MM. */
  today: string;
  now: string;
  consentRequired: boolean;
  lang: string;
  t: Translation;
}

/** The opening hours of the chosen date, or undefined when no date is chosen. */
export function hoursOn(date: string, openingHours: RuleContext['openingHours']) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const day = dayNameOf(date);
  const hours = openingHours?.[day];
  return { day, open: !!hours && !hours.is_closed, hours };
}

/**
 * The browser-side check of a booking, mirroring the server's rules so most
 * mistakes are caught while typing; the server stays the authority.
 */
export function validateDraft(draft: BookingDraft, context: RuleContext): FieldErrors {
  const { t } = context;
  const errors: FieldErrors = {};
  if (!draft.patient_name.trim()) errors.patient_name = t.errRequired;
  const phone = draft.patient_phone.trim();
  if (!phone) errors.patient_phone = t.errRequired;
  else if (!PHONE.test(phone) || phone.replace(/\D/g, '').length < 5) errors.patient_phone = t.errPhone;

  const date = draft.appointment_date;
  if (!date) errors.appointment_date = t.errRequired;
  else if (date < context.today) errors.appointment_date = t.errDatePast;

  const chosen = hoursOn(date, context.openingHours);
  if (chosen && !chosen.open && !errors.appointment_date) {
    errors.appointment_date = t.errClosedDay(localDayName(chosen.day, context.lang));
  }

  const time = draft.appointment_time;
  if (!time) errors.appointment_time = t.errRequired;
  else if (chosen?.open && chosen.hours) {
    const start = minutesOf(time);
    if (start < minutesOf(chosen.hours.open) || start >= minutesOf(chosen.hours.close)) {
      errors.appointment_time = t.errTimeOutside(chosen.hours.open, chosen.hours.close);
    } else if (date === context.today && time <= context.now) {
      errors.appointment_time = t.errDatePast;
    }
  }
  if (context.consentRequired && !draft.consent) errors.consent = t.errConsent;
  return errors;
}

/** The JSON body the BFF expects, with the honeypot the form keeps empty. */
export function bookingBody(draft: BookingDraft, honeypot: string) {
  const optionalId = (value: string) => (value ? Number(value) : undefined);
  const optionalText = (value: string) => value.trim() || undefined;
  return {
    patient_name: draft.patient_name.trim(),
    patient_phone: draft.patient_phone.trim(),
    address: optionalText(draft.address),
    appointment_date: draft.appointment_date,
    appointment_time: draft.appointment_time,
    doctor_id: optionalId(draft.doctor_id),
    treatment_id: optionalId(draft.treatment_id),
    note: optionalText(draft.note),
    website: honeypot,
  };
}
