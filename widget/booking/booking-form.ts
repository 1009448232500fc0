import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { Dentist, Treatment, WebsiteSite } from '../../contract/index.js';
import type { BookingResult } from '../../contract/bff.js';
import { HONEYPOT_FIELD } from '../../contract/rules/bff-api.js';
import { LIMITS } from '../../contract/rules/limits.js';
import { book } from '../api.js';
import { busySeconds, toBffError } from '../bff-error.js';
import { emit } from '../events.js';
import { formatDate, localToday } from '../format.js';
import { sharedStyles } from '../shared.styles.js';
import { DEFAULT_CONTEXT, type WidgetContext } from '../widget-context.js';
import { bookingFormStyles } from './booking-form.styles.js';
import {
  bookingBody,
  dayHours,
  EMPTY_DRAFT,
  openingOn,
  validateDraft,
  type BookingDraft,
  type DraftField,
  type FieldErrors,
} from './booking-rules.js';
import { draftStorage, type StoredDraft } from './draft-storage.js';

interface Booked extends BookingResult {
  date: string;
  time: string;
}

/**
 * The booking form of <clinic-booking>: labelled fields, inline validation
 * tied with aria-describedby, a draft kept across reloads, and one
 * Idempotency-Key per booking so a retry never books twice.
 *
 * @internal Used by <clinic-booking>; not meant to be placed on a page alone.
 */
@customElement('clinic-booking-form')
export class ClinicBookingForm extends LitElement {
  static override styles = [sharedStyles, bookingFormStyles];

  /** The language, strings and BFF of the <clinic-booking> this form belongs to. */
  @property({ attribute: false }) context: WidgetContext = DEFAULT_CONTEXT;
  @property({ attribute: false }) site?: WebsiteSite;
  @property({ attribute: false }) treatments: Treatment[] = [];
  @property({ attribute: false }) dentists: Dentist[] = [];
  @property({ attribute: false }) preselectTreatment?: number;
  @property({ attribute: false }) preselectDoctor?: number;
  @property({ attribute: false }) prefillName?: string;
  @property({ attribute: false }) prefillPhone?: string;
  @property({ attribute: false }) privacyUrl?: string;
  @property({ attribute: false }) successUrl?: string;

  @state() private draft: BookingDraft = { ...EMPTY_DRAFT };
  @state() private errors: FieldErrors = {};
  @state() private sending = false;
  @state() private failure?: string;
  @state() private booked?: Booked;

  private attempt?: StoredDraft['attempt'];
  @query('#result-heading') private resultHeading?: HTMLElement;
  @query('#failure') private failureBox?: HTMLElement;
  @query('#honeypot') private honeypot?: HTMLInputElement;

  private get apiBase(): string {
    return this.context.apiBase;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const stored = draftStorage.load(this.apiBase);
    if (stored) {
      this.draft = { ...EMPTY_DRAFT, ...stored.draft };
      this.attempt = stored.attempt;
    }
    this.draft = {
      ...this.draft,
      patient_name: this.draft.patient_name || this.prefillName || '',
      patient_phone: this.draft.patient_phone || this.prefillPhone || '',
    };
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('preselectTreatment') && this.preselectTreatment !== undefined) {
      this.draft = { ...this.draft, treatment_id: String(this.preselectTreatment) };
    }
    if (changed.has('preselectDoctor') && this.preselectDoctor !== undefined) {
      this.draft = { ...this.draft, doctor_id: String(this.preselectDoctor) };
    }
  }

  /** Chooses a treatment or dentist, as "Book" on its card does; kept in the draft like a choice in the form. */
  choose(field: 'treatment_id' | 'doctor_id', id: number): void {
    this.setField(field, String(id));
  }

  /** Moves focus to the first field, e.g. after "Book" on a treatment. */
  focusFirstField(): void {
    this.renderRoot.querySelector<HTMLElement>('input, select')?.focus();
  }

  private rules() {
    const now = new Date();
    return {
      openingHours: this.site?.opening_hours,
      today: localToday(now),
      now: `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`,
      consentRequired: !!this.privacyUrl,
      lang: this.context.lang,
      t: this.context.t,
    };
  }

  private setField(field: DraftField, value: string | boolean): void {
    this.draft = { ...this.draft, [field]: value };
    if (this.errors[field]) this.errors = { ...this.errors, [field]: validateDraft(this.draft, this.rules())[field] };
    draftStorage.save(this.apiBase, { draft: this.draft, attempt: this.attempt });
  }

  private checkField(field: DraftField): void {
    const problem = validateDraft(this.draft, this.rules())[field];
    this.errors = { ...this.errors, [field]: problem };
  }

  private async submit(event: Event): Promise<void> {
    event.preventDefault();
    if (this.sending) return;
    const errors = validateDraft(this.draft, this.rules());
    this.errors = errors;
    this.failure = undefined;
    const invalid = Object.keys(errors).filter((field) => errors[field as DraftField]);
    if (invalid.length > 0) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(`#${invalid[0]}`)?.focus();
      return;
    }

    const body = bookingBody(this.draft, this.honeypot?.value ?? '');
    const bodyText = JSON.stringify(body);
    // The same booking retried keeps its key (the server replays the first
    // answer); a changed booking is a new one with a new key.
    if (this.attempt?.body !== bodyText) this.attempt = { key: crypto.randomUUID(), body: bodyText };
    draftStorage.save(this.apiBase, { draft: this.draft, attempt: this.attempt });

    this.sending = true;
    try {
      const result = await book(this.apiBase, body, this.attempt.key);
      this.succeeded({ ...result, date: body.appointment_date, time: body.appointment_time }, body);
    } catch (error) {
      await this.failed(error);
    } finally {
      this.sending = false;
    }
  }

  private succeeded(result: Booked, body: ReturnType<typeof bookingBody>): void {
    draftStorage.clear(this.apiBase);
    this.attempt = undefined;
    this.booked = result;
    const proceed = emit(
      this,
      'clinic-booking:booked',
      {
        reference: result.reference,
        appointment_id: result.appointment_id,
        date: result.date,
        time: result.time,
        treatment_id: body.treatment_id ?? null,
        doctor_id: body.doctor_id ?? null,
      },
      true,
    );
    if (proceed && this.successUrl) {
      window.location.assign(this.successUrl);
      return;
    }
    void this.updateComplete.then(() => this.resultHeading?.focus());
  }

  private async failed(error: unknown): Promise<void> {
    const failure = toBffError(error);
    const { status, code, message } = failure;
    const { t } = this.context;
    const busy = busySeconds(failure);
    this.failure =
      code === 'validation_error' ? t.errValidation(message)
      : code === 'slot_unavailable' ? t.errSlotTaken
      // 429 is the spec's rate-limit status whoever sends it (a proxy in front of the BFF has no error_code).
      : code === 'rate_limited' || status === 429 ? t.errRateLimited
      : busy !== undefined ? t.errBusy(busy)
      // book() has already re-sent it twice with the same key; the key is kept for "Book appointment" again.
      : status === 504 ? t.errOutcomeUnknown
      : status === 0 || status >= 500 ? t.errNetwork
      : t.errGeneric;
    emit(this, 'clinic-booking:error', { kind: 'booking', status, code });
    await this.updateComplete;
    this.failureBox?.focus();
  }

  private bookAnother(): void {
    this.booked = undefined;
    this.draft = { ...EMPTY_DRAFT, patient_name: this.prefillName ?? '', patient_phone: this.prefillPhone ?? '' };
    void this.updateComplete.then(() => this.focusFirstField());
  }

  override render(): TemplateResult {
    return this.booked ? this.renderBooked(this.booked) : this.renderForm();
  }

  private renderBooked(booked: Booked): TemplateResult {
    const { t, lang } = this.context;
    return html`<div class="result" part="booking-result" role="status">
      <h3 id="result-heading" tabindex="-1">${t.bookedTitle}</h3>
      <p>${t.bookedSummary(formatDate(booked.date, lang), booked.time)}</p>
      <p>${t.referenceLabel}: <strong class="reference" data-reference>${booked.reference}</strong></p>
      <p class="muted">${t.keepReference}</p>
      <button class="button secondary" type="button" @click=${this.bookAnother}>${t.bookAnother}</button>
    </div>`;
  }

  private renderForm(): TemplateResult {
    const { t } = this.context;
    const verdict = openingOn(this.draft.appointment_date, this.draft.appointment_time, this.site?.opening_hours);
    const hours = verdict && dayHours(verdict);
    const hoursHint = !verdict ? '' : hours ? t.hoursHint(hours.open, hours.close) : t.closedHint;
    const errorCount = Object.values(this.errors).filter(Boolean).length;
    return html`<form part="booking-form" novalidate @submit=${this.submit} aria-describedby="form-status">
      ${this.site?.appointment_subtitle ? html`<p class="muted">${this.site.appointment_subtitle}</p>` : nothing}
      <p id="form-status" class="visually-hidden" aria-live="polite">${errorCount ? t.errSummary(errorCount) : ''}</p>
      ${this.failure
        ? html`<div id="failure" class="failure" role="alert" tabindex="-1" part="booking-error">${this.failure}</div>`
        : nothing}
      <div class="grid">
        ${this.textField('patient_name', t.patientName, { required: true, autocomplete: 'name', maxlength: LIMITS.patientName })}
        ${this.textField('patient_phone', t.patientPhone, { required: true, autocomplete: 'tel', type: 'tel', maxlength: LIMITS.patientPhone })}
        ${this.textField('appointment_date', t.date, { required: true, type: 'date', min: localToday() })}
        ${this.textField('appointment_time', t.time, { required: true, type: 'time', step: 900, hint: hoursHint })}
        ${this.selectField('doctor_id', t.dentist, t.anyDentist, this.dentists.map((d) => [d.doctor_id, d.doctor_name]))}
        ${this.selectField('treatment_id', t.treatment, t.noTreatment, this.treatments.map((x) => [x.treatment_id, x.treatment_name]))}
        ${this.textField('address', t.patientAddress, { autocomplete: 'street-address', maxlength: LIMITS.address, wide: true })}
        <div class="field wide">
          <label for="note">${t.note} <span class="muted">(${t.optional})</span></label>
          <textarea id="note" name="note" maxlength=${LIMITS.note} rows="3" .value=${this.draft.note}
            aria-invalid=${this.errors.note ? 'true' : 'false'}
            aria-describedby=${ifDefined(this.describedBy('note'))}
            @input=${(e: Event) => this.setField('note', (e.target as HTMLTextAreaElement).value)}
            @change=${() => this.checkField('note')} @blur=${() => this.checkField('note')}></textarea>
          ${this.errorText('note')}
        </div>
      </div>
      <div class="honeypot" aria-hidden="true">
        <label for="honeypot">Website</label>
        <input id="honeypot" name=${HONEYPOT_FIELD} tabindex="-1" autocomplete="off" />
      </div>
      ${this.privacyUrl ? this.consentField(this.privacyUrl) : nothing}
      <button class="button" type="submit" part="submit" ?disabled=${this.sending} aria-busy=${this.sending ? 'true' : 'false'}>
        ${this.sending ? t.sending : t.submit}
      </button>
    </form>`;
  }

  private describedBy(field: DraftField, hint?: string): string | undefined {
    const ids = [hint ? `${field}-hint` : '', this.errors[field] ? `${field}-error` : ''].filter(Boolean);
    return ids.length ? ids.join(' ') : undefined;
  }

  private label(field: DraftField, text: string, required: boolean): TemplateResult {
    return html`<label for=${field}>${text}
      ${required
        ? html`<span class="required" aria-hidden="true">*</span><span class="visually-hidden">(${this.context.t.requiredMark})</span>`
        : html`<span class="muted">(${this.context.t.optional})</span>`}</label>`;
  }

  private errorText(field: DraftField) {
    const error = this.errors[field];
    return error ? html`<p id="${field}-error" class="error">${error}</p>` : nothing;
  }

  private textField(
    field: DraftField,
    text: string,
    options: { required?: boolean; type?: string; autocomplete?: string; maxlength?: number; min?: string; step?: number; hint?: string; wide?: boolean },
  ): TemplateResult {
    const { required = false, type = 'text', hint } = options;
    return html`<div class="field ${options.wide ? 'wide' : ''}">
      ${this.label(field, text, required)}
      <input id=${field} name=${field} type=${type} .value=${String(this.draft[field])}
        ?required=${required}
        autocomplete=${ifDefined(options.autocomplete)} maxlength=${ifDefined(options.maxlength)}
        min=${ifDefined(options.min)} step=${ifDefined(options.step)}
        aria-invalid=${this.errors[field] ? 'true' : 'false'}
        aria-describedby=${ifDefined(this.describedBy(field, hint))}
        @input=${(e: Event) => this.setField(field, (e.target as HTMLInputElement).value)}
        @change=${() => this.checkField(field)} @blur=${() => this.checkField(field)} />
      ${hint ? html`<p id="${field}-hint" class="hint">${hint}</p>` : nothing}
      ${this.errorText(field)}
    </div>`;
  }

  private selectField(field: DraftField, text: string, emptyLabel: string, options: [number, string][]): TemplateResult {
    return html`<div class="field">
      ${this.label(field, text, false)}
      <select id=${field} name=${field}
        @change=${(e: Event) => this.setField(field, (e.target as HTMLSelectElement).value)}>
        <option value="" ?selected=${this.draft[field] === ''}>${emptyLabel}</option>
        ${options.map(([id, name]) => html`<option value=${id} ?selected=${this.draft[field] === String(id)}>${name}</option>`)}
      </select>
    </div>`;
  }

  private consentField(privacyUrl: string): TemplateResult {
    const { t } = this.context;
    return html`<div class="field consent">
      <input id="consent" type="checkbox" .checked=${this.draft.consent} required
        aria-invalid=${this.errors.consent ? 'true' : 'false'}
        aria-describedby=${ifDefined(this.errors.consent ? 'consent-error' : undefined)}
        @change=${(e: Event) => {
          this.setField('consent', (e.target as HTMLInputElement).checked);
          this.checkField('consent');
        }} />
      <label for="consent">${t.privacyConsent}
        <a href=${privacyUrl} target="_blank" rel="noopener">${t.privacyLink}</a>
        <span class="required" aria-hidden="true">*</span></label>
      ${this.errorText('consent')}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'clinic-booking-form': ClinicBookingForm;
  }
}
