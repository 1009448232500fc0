import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { Dentist, Treatment, WebsiteSite } from '../../contract/index.js';
import { HONEYPOT_FIELD } from '../../contract/rules/bff-api.js';
import { sharedStyles } from '../shared.styles.js';
import { DEFAULT_CONTEXT, type WidgetContext } from '../widget-context.js';
import { BookingFlow, type ChoiceField } from './booking-flow.js';
import { bookingFormStyles } from './booking-form.styles.js';
import { STEPS, type Step } from './booking-steps.js';
import { renderDayStep } from './steps/day-step.js';
import { renderDentistStep } from './steps/dentist-step.js';
import { renderDetailsStep } from './steps/details-step.js';
import { renderResultStep } from './steps/result-step.js';
import { renderReviewStep } from './steps/review-step.js';
import { renderNearest } from './steps/time-step.js';
import { choiceDetails, renderSummary } from './choices-summary.js';
import { telLink } from './appointment-view.js';
import { renderTreatmentStep } from './steps/treatment-step.js';

type Heading = 'treatment' | 'dentist' | 'when' | 'details' | 'review';

/** Each step's heading (its key in the translation table) and view. */
const STEP_VIEWS: Record<Step, [heading: Heading, view: (flow: BookingFlow) => TemplateResult]> = {
  treatment: ['treatment', renderTreatmentStep],
  dentist: ['dentist', renderDentistStep],
  day: ['when', renderDayStep],
  details: ['details', renderDetailsStep],
  review: ['review', renderReviewStep],
};

/**
 * The booking form of <clinic-booking> as a step flow: treatment, dentist,
 * day and time (a calendar grid, and the chosen day's free times beside it),
 * the patient's details, then review and book; from the second step on, a
 * summary of the choices made so far. One form: every entry is kept going back and
 * forth and across reloads (sessionStorage), and one Idempotency-Key per
 * booking means a retry never books twice. The behaviour is the flow's
 * (booking-flow.ts); each step's view is in steps/, the fields in fields.ts.
 *
 * @internal Used by <clinic-booking>; not meant to be placed on a page alone.
 */
export class ClinicBookingForm extends LitElement {
  static override styles = [sharedStyles, bookingFormStyles];

  // Lit's reactive properties, declared statically rather than with decorators: the decorator
  // helpers cost half a kilobyte of the widget's 25 KB budget.
  static override properties = {
    context: { attribute: false },
    site: { attribute: false },
    currency: { attribute: false },
    treatments: { attribute: false },
    dentists: { attribute: false },
    preselectTreatment: { attribute: false },
    preselectDoctor: { attribute: false },
    prefillName: { attribute: false },
    prefillPhone: { attribute: false },
    privacyUrl: { attribute: false },
    successUrl: { attribute: false },
    emailOffered: { attribute: false },
    instance: { attribute: false },
  };

  /** The language, strings and BFF of the <clinic-booking> this form belongs to. */
  context: WidgetContext = DEFAULT_CONTEXT;
  site?: WebsiteSite;
  /** The clinic's currency (ISO 4217), for the treatments' fees. */
  currency?: string;
  treatments: Treatment[] = [];
  dentists: Dentist[] = [];
  preselectTreatment?: number;
  preselectDoctor?: number;
  prefillName?: string;
  prefillPhone?: string;
  privacyUrl?: string;
  successUrl?: string;
  /** The site sends patients e-mail (the content's offers): the details step offers a confirmation by e-mail. */
  emailOffered?: boolean;
  /** The widget's number on the page: from the second on, the form's name ends with it, so landmark names stay unique. */
  instance = 1;

  /** The form's behaviour and state (booking-flow.ts); the manage view starts a new booking through it. */
  readonly flow = new BookingFlow(this);

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A prefilled step is skipped: a treatment given starts at the dentist, and a dentist too at the day.
    if (changed.has('preselectTreatment') && this.preselectTreatment !== undefined) this.flow.preselect('treatment_id', this.preselectTreatment);
    if (changed.has('preselectDoctor') && this.preselectDoctor !== undefined) this.flow.preselect('doctor_id', this.preselectDoctor);
  }

  /** Chooses a treatment or dentist, as "Book" on its card does, and goes to the step after it. */
  choose(field: ChoiceField, id: number): void {
    this.flow.choose(field, id);
  }

  /** Moves focus to the step's heading, e.g. after "Book" on a treatment. */
  focusFirstField(): void {
    this.renderRoot.querySelector<HTMLElement>('#step-heading')?.focus();
  }

  override render(): TemplateResult {
    const { flow } = this;
    return flow.booked ? renderResultStep(flow, flow.booked) : this.renderForm(flow);
  }

  /** The step shown, under its heading, with the failure of the last booking above and Back / Continue / Book below. */
  private renderForm(flow: BookingFlow): TemplateResult {
    const { t } = this.context;
    const { step, sending } = flow;
    const [heading, view] = STEP_VIEWS[step];
    const errorCount = Object.values(flow.errors).filter(Boolean).length;
    return html`<form part="booking-form" novalidate @submit=${(event: Event) => flow.submit(event)} aria-labelledby="step-heading${this.instance > 1 ? ' instance' : ''}">
      ${this.instance > 1 ? html`<span id="instance" hidden>(${this.instance})</span>` : nothing}
      ${this.site?.appointment_subtitle ? html`<p class="muted">${this.site.appointment_subtitle}</p>` : nothing}
      <p id="form-status" class="visually-hidden" aria-live="polite">${errorCount ? t.errSummary(errorCount) : ''}</p>
      ${flow.failure
        ? html`<div id="failure" class="failure" role="alert" tabindex="-1" part="booking-error">
            ${flow.failure} ${flow.callClinic ? callClinic(this.site?.contact_phone, t.callClinic) : nothing}${renderNearest(flow)}
          </div>`
        : nothing}
      <h3 id="step-heading" tabindex="-1"><span class="muted">${t.step(STEPS.indexOf(step) + 1, STEPS.length)}</span> ${t[heading]}</h3>
      ${step === 'dentist' || step === 'day' || step === 'details'
        ? // The choices of the steps before: on the day step, the day being chosen shows in the calendar, not here.
          renderSummary(choiceDetails(flow.choices(), { ...this.context, currency: this.currency }).slice(0, step === 'details' ? 4 : STEPS.indexOf(step)))
        : nothing}
      ${view(flow)}
      <div class="visually-hidden" aria-hidden="true">
        <label for="honeypot">Website</label>
        <input id="honeypot" name=${HONEYPOT_FIELD} tabindex="-1" autocomplete="off" />
      </div>
      <div class="row">
        ${step !== 'treatment' ? html`<button class="button secondary" type="button" @click=${() => flow.back()}>${t.back}</button>` : nothing}
        ${step === 'details' ? html`<button class="button" type="submit">${t.next}</button>` : nothing}
        ${step === 'review'
          ? html`<button class="button" type="submit" part="submit" ?disabled=${sending} aria-busy=${sending ? 'true' : 'false'}>
              ${sending ? t.sending : t.submit}
            </button>`
          : nothing}
      </div>
    </form>`;
  }
}

/** After "too many attempts": the clinic's phone as a link, the way on that needs no waiting. */
function callClinic(phone: string | undefined, words: string): TemplateResult | typeof nothing {
  // The space before it is in the form's template: the build trims a template's leading whitespace.
  return phone ? html`${words} ${telLink(phone)}` : nothing;
}

customElements.define('clinic-booking-form', ClinicBookingForm);

declare global {
  interface HTMLElementTagNameMap {
    'clinic-booking-form': ClinicBookingForm;
  }
}
