import { html, nothing, type TemplateResult } from 'lit';
import type { Dentist, Treatment } from '../../contract/index.js';
import { formatFee } from '../format.js';
import type { WidgetContext } from '../widget-context.js';

interface CardContext extends Pick<WidgetContext, 't' | 'lang'> {
  currency: string | undefined;
  /** Preselects this item in the booking form; absent when the form is not shown. */
  onBook?: (id: number) => void;
}

const bookButton = (label: string, onBook: (() => void) | undefined) =>
  onBook ? html`<button class="button secondary" type="button" @click=${onBook}>${label}</button>` : nothing;

/** Treatments: name, description, fee in the clinic's currency, duration, and "Book". */
export function renderTreatments(treatments: Treatment[], heading: string, { t, lang, currency, onBook }: CardContext): TemplateResult {
  return html`<section part="treatments" aria-labelledby="treatments-heading">
    <h2 id="treatments-heading">${heading}</h2>
    ${treatments.length === 0
      ? html`<p class="muted">${t.nothingYet}</p>`
      : html`<ul class="cards">
          ${treatments.map(
            (treatment) => html`<li class="card" part="treatment">
              <h3>${treatment.treatment_name}</h3>
              <p>${treatment.description}</p>
              <p><strong>${formatFee(treatment.base_fee, currency, lang)}</strong> · ${t.minutes(treatment.duration_minutes)}</p>
              ${bookButton(t.bookThis(treatment.treatment_name), onBook && (() => onBook(treatment.treatment_id)))}
            </li>`,
          )}
        </ul>`}
  </section>`;
}

/** Dentists: name, specialization, qualification, experience, consultation fee, and "Book". */
export function renderDentists(dentists: Dentist[], heading: string, { t, lang, currency, onBook }: CardContext): TemplateResult {
  return html`<section part="dentists" aria-labelledby="dentists-heading">
    <h2 id="dentists-heading">${heading}</h2>
    ${dentists.length === 0
      ? html`<p class="muted">${t.nothingYet}</p>`
      : html`<ul class="cards">
          ${dentists.map(
            (dentist) => html`<li class="card" part="dentist">
              <h3>${dentist.doctor_name}</h3>
              <p>${dentist.specialization}</p>
              <p class="muted">${dentist.qualification} · ${t.yearsExperience(dentist.experience_years)}</p>
              <p>${t.consultationFee}: <strong>${formatFee(dentist.consultation_fee, currency, lang)}</strong></p>
              ${bookButton(t.bookThis(dentist.doctor_name), onBook && (() => onBook(dentist.doctor_id)))}
            </li>`,
          )}
        </ul>`}
  </section>`;
}
