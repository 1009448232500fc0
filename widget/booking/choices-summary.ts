import { html, type TemplateResult } from 'lit';
import type { Dentist, Treatment } from '../../contract/index.js';
import { formatDate, formatFee, formatTime } from '../format.js';
import type { Translation } from '../i18n/translation.js';
import { detailList, type Detail } from './appointment-view.js';

/** What the patient has chosen so far; a date or time not yet chosen is empty. */
export interface Choices {
  treatment?: Treatment;
  dentist?: Dentist;
  date: string;
  time: string;
}

/** How a summary speaks: the strings, the language, and the clinic's currency for the fee. */
export interface SummaryContext {
  t: Translation;
  lang: string;
  currency?: string;
}

/** A treatment's length and fee, as its card and the summary show them: "30 min · £60.00". */
export const treatmentFacts = (treatment: Treatment, { t, lang, currency }: SummaryContext): string =>
  `${t.minutes(treatment.duration_minutes)} · ${formatFee(treatment.base_fee, currency, lang)}`;

/**
 * The choices as label and value pairs: the treatment with its length and fee ("Not sure yet"
 * without one; the facts isolated, so that Arabic's keep their order beside a Latin name), the dentist ("Any dentist"), then the day and the time once chosen.
 */
export function choiceDetails(c: Choices, context: SummaryContext): Detail[] {
  const { t, lang } = context;
  return [
    [t.treatment, c.treatment ? html`${c.treatment.treatment_name} <bdi class="muted">(${treatmentFacts(c.treatment, context)})</bdi>` : t.noTreatment],
    [t.dentist, c.dentist?.doctor_name ?? t.anyDentist],
    [t.date, c.date && formatDate(c.date, lang)],
    [t.time, c.time && formatTime(c.time, lang)],
  ];
}

/**
 * The choices so far, under the heading of the steps after the first, and on the review with the
 * patient's details after them: one list, the same block on every step, only longer (an empty value
 * is left out).
 */
export const renderSummary = (details: Detail[]): TemplateResult => detailList(details, 'booking-summary');
