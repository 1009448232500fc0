import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { Task, TaskStatus } from '@lit/task';
import type { Dentist, Treatment, WebsiteSite } from '../../contract/index.js';
import type { BookingResult } from '../../contract/bff.js';
import { HONEYPOT_FIELD } from '../../contract/rules/bff-api.js';
import { addDays, clinicLocalTime, minutesOf } from '../../contract/rules/clinic-time.js';
import { LIMITS } from '../../contract/rules/limits.js';
import { candidateSlots, dayHasSlot, SLOT_STEP_MINUTES } from '../../contract/rules/slots.js';
import { availability, book } from '../api.js';
import { busySeconds, toBffError } from '../bff-error.js';
import { emit } from '../events.js';
import { formatDate, formatTime, localToday } from '../format.js';
import { sharedStyles } from '../shared.styles.js';
import { DEFAULT_CONTEXT, type WidgetContext } from '../widget-context.js';
import { detailList, icsFile, renderAppointment } from './appointment-view.js';
import { bookingFormStyles } from './booking-form.styles.js';
import { bookingBody, EMPTY_DRAFT, validateDraft, type BookingDraft, type DraftField, type FieldErrors } from './booking-rules.js';
import { renderCalendar, type DayReason } from './calendar.js';
import { draftStorage, type StoredDraft } from './draft-storage.js';

/** The steps, in order; the form shows one at a time. */
const enum Step {
  Treatment,
  Dentist,
  Day,
  Time,
  Details,
  Review,
}
const STEPS = 6;

interface Booked extends BookingResult {
  date: string;
  time: string;
  treatment?: Treatment;
  /** A blob: URL of the .ics file, revoked when the patient books another. */
  ics: string;
}

/**
 * The booking form of <clinic-booking> as a step flow: treatment, dentist,
 * day (a calendar grid), time (the free slots as buttons), the patient's
 * details, then review and book. One form: every entry is kept going back and
 * forth and across reloads (sessionStorage), and one Idempotency-Key per
 * booking means a retry never books twice.
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
    treatments: { attribute: false },
    dentists: { attribute: false },
    preselectTreatment: { attribute: false },
    preselectDoctor: { attribute: false },
    prefillName: { attribute: false },
    prefillPhone: { attribute: false },
    privacyUrl: { attribute: false },
    successUrl: { attribute: false },
    instance: { attribute: false },
    draft: { state: true },
    step: { state: true },
    errors: { state: true },
    sending: { state: true },
    failure: { state: true },
    booked: { state: true },
    cursor: { state: true },
    zone: { state: true },
    lost: { state: true },
    lostTime: { state: true },
    copied: { state: true },
  };

  /** The language, strings and BFF of the <clinic-booking> this form belongs to. */
  context: WidgetContext = DEFAULT_CONTEXT;
  site?: WebsiteSite;
  treatments: Treatment[] = [];
  dentists: Dentist[] = [];
  preselectTreatment?: number;
  preselectDoctor?: number;
  prefillName?: string;
  prefillPhone?: string;
  privacyUrl?: string;
  successUrl?: string;
  /** The widget's number on the page: from the second on, the form's name ends with it, so landmark names stay unique. */
  instance = 1;

  private draft: BookingDraft = { ...EMPTY_DRAFT };
  private step = Step.Treatment;
  private errors: FieldErrors = {};
  private sending = false;
  private failure?: string;
  private booked?: Booked;
  /** The calendar's focused day (its month is the one shown). */
  private cursor = '';
  /** The clinic's IANA time zone, once an availability answer has named it. */
  private zone?: string;
  /** Slots this form was refused (409) since they were last fetched: `date doctor time`. */
  private lost: string[] = [];
  /** The start refused by the last 409, for which the nearest open starts are offered. */
  private lostTime = '';
  private copied = false;

  private attempt?: StoredDraft['attempt'];
  private get resultHeading(): HTMLElement | null {
    return this.renderRoot.querySelector('#result-heading');
  }
  private get failureBox(): HTMLElement | null {
    return this.renderRoot.querySelector('#failure');
  }
  private get honeypot(): HTMLInputElement | null {
    return this.renderRoot.querySelector('#honeypot');
  }

  /**
   * The day's slots as the BFF knows them, fetched on the time step; on the
   * day step, while the clinic's zone is unknown, today's, to learn it.
   */
  private readonly slots = new Task(this, {
    task: async ([apiBase, date, doctor, treatment], { signal }) => (date ? availability(apiBase, date, doctor, treatment, signal) : undefined),
    args: () => {
      const date = this.step === Step.Time ? this.draft.appointment_date : this.step === Step.Day && !this.zone ? localToday() : '';
      return [this.apiBase, date, this.draft.doctor_id, this.draft.treatment_id] as const;
    },
    onComplete: (found) => {
      if (found) this.zone = found.time_zone;
    },
  });

  private get apiBase(): string {
    return this.context.apiBase;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const stored = draftStorage.load(this.apiBase);
    if (stored) {
      this.draft = { ...EMPTY_DRAFT, ...stored.draft };
      this.step = stored.step ?? Step.Treatment;
      this.attempt = stored.attempt;
    }
    this.draft = {
      ...this.draft,
      patient_name: this.draft.patient_name || this.prefillName || '',
      patient_phone: this.draft.patient_phone || this.prefillPhone || '',
    };
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A prefilled step is skipped: a treatment given starts at the dentist, and a dentist too at the day.
    if (changed.has('preselectTreatment') && this.preselectTreatment !== undefined) {
      this.draft = { ...this.draft, treatment_id: String(this.preselectTreatment) };
      if (this.step === Step.Treatment) this.step = Step.Dentist;
    }
    if (changed.has('preselectDoctor') && this.preselectDoctor !== undefined) {
      this.draft = { ...this.draft, doctor_id: String(this.preselectDoctor) };
      if (this.step === Step.Dentist) this.step = Step.Day;
    }
  }

  /** Chooses a treatment or dentist, as "Book" on its card does, and goes to the step after it. */
  choose(field: 'treatment_id' | 'doctor_id', id: number): void {
    this.setField(field, String(id));
    void this.go(field === 'treatment_id' ? Step.Dentist : Step.Day);
  }

  /** Moves focus to the step's heading, e.g. after "Book" on a treatment. */
  focusFirstField(): void {
    this.renderRoot.querySelector<HTMLElement>('#step-heading')?.focus();
  }

  /** Shows a step and moves focus to its heading, which announces it. */
  private async go(step: Step): Promise<void> {
    this.step = step;
    this.save();
    await this.updateComplete;
    this.focusFirstField();
  }

  private save(): void {
    draftStorage.save(this.apiBase, { draft: this.draft, step: this.step, attempt: this.attempt });
  }

  /** The clinic's date and time now: in its zone once known, else the visitor's own clock. */
  private now(): { date: string; time: string } {
    const now = new Date();
    return this.zone ? clinicLocalTime(now, this.zone) : { date: localToday(now), time: now.toTimeString().slice(0, 5) };
  }

  private get treatment(): Treatment | undefined {
    return this.treatments.find((x) => String(x.treatment_id) === this.draft.treatment_id);
  }

  private rules() {
    return { consentRequired: !!this.privacyUrl, t: this.context.t };
  }

  private setField(field: DraftField, value: string | boolean): void {
    this.draft = { ...this.draft, [field]: value };
    if (this.errors[field]) this.errors = { ...this.errors, [field]: validateDraft(this.draft, this.rules())[field] };
    this.save();
  }

  private checkField(field: DraftField): void {
    const problem = validateDraft(this.draft, this.rules())[field];
    this.errors = { ...this.errors, [field]: problem };
  }

  /** A choice on the treatment, dentist, day or time step: kept, and on to the next step. */
  private pick(field: DraftField, value: string): void {
    if (field === 'appointment_date') {
      // The calendar opens on the day chosen; a new day needs a new time.
      this.cursor = value;
      if (value !== this.draft.appointment_date) this.draft = { ...this.draft, appointment_time: '' };
    }
    this.setField(field, value);
    this.failure = undefined;
    void this.go(this.step + 1);
  }

  /** Enter or the step's button: from the details, on to the review; from the review, book. */
  private async submit(event: Event): Promise<void> {
    event.preventDefault();
    if (this.sending) return;
    const errors = validateDraft(this.draft, this.rules());
    this.errors = errors;
    this.failure = undefined;
    const invalid = Object.keys(errors).filter((field) => errors[field as DraftField]);
    if (invalid.length > 0) {
      if (this.step !== Step.Details) await this.go(Step.Details);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(`#${invalid[0]}`)?.focus();
      return;
    }
    if (this.step !== Step.Review) return this.go(Step.Review);
    if (!this.draft.appointment_time) return this.go(this.draft.appointment_date ? Step.Time : Step.Day);

    const body = bookingBody(this.draft, this.honeypot?.value ?? '');
    const bodyText = JSON.stringify(body);
    // The same booking retried keeps its key (the server replays the first
    // answer); a changed booking is a new one with a new key.
    if (this.attempt?.body !== bodyText) this.attempt = { key: crypto.randomUUID(), body: bodyText };
    this.save();

    this.sending = true;
    try {
      const result = await book(this.apiBase, body, this.attempt.key);
      this.succeeded(result, body);
    } catch (error) {
      await this.failed(error);
    } finally {
      this.sending = false;
    }
  }

  private succeeded(result: BookingResult, body: ReturnType<typeof bookingBody>): void {
    draftStorage.clear(this.apiBase);
    this.attempt = undefined;
    const { appointment_date: date, appointment_time: time } = body;
    const treatment = this.treatment;
    const ics = icsFile({
      title: [treatment?.treatment_name, this.site?.clinic_name].filter(Boolean).join(', '),
      address: this.site?.contact_address ?? '',
      date,
      time,
      minutes: treatment?.duration_minutes ?? SLOT_STEP_MINUTES,
      zone: this.zone,
    });
    this.booked = { ...result, date, time, treatment, ics: URL.createObjectURL(new Blob([ics], { type: 'text/calendar' })) };
    this.copied = false;
    const proceed = emit(
      this,
      'clinic-booking:booked',
      {
        reference: result.reference,
        date,
        time,
        treatment_id: body.treatment_id ?? null,
        doctor_id: result.doctor_id ?? body.doctor_id ?? null,
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
      code === 'validation_error' ? refusal(message, t)
      : code === 'slot_unavailable' ? t.errSlotTaken
      // 429 is the spec's rate-limit status whoever sends it (a proxy in front of the BFF has no error_code).
      : code === 'rate_limited' || status === 429 ? t.errRateLimited
      : busy !== undefined ? t.errBusy(busy)
      // book() has already re-sent it twice with the same key; the key is kept for "Book appointment" again.
      : status === 504 ? t.errOutcomeUnknown
      : status === 0 || status >= 500 ? t.errNetwork
      : t.errGeneric;
    emit(this, 'clinic-booking:error', { kind: 'booking', status, code });
    if (code === 'slot_unavailable') {
      // Taken: greyed out from now on, the day's slots fetched again, and the nearest open ones offered.
      const { appointment_date: date, doctor_id: doctor, appointment_time: time } = this.draft;
      this.lost = [...this.lost, `${date} ${doctor} ${time}`];
      this.lostTime = time;
      this.step = Step.Time;
      this.save();
      void this.slots.run();
    }
    await this.updateComplete;
    this.failureBox?.focus();
  }

  private bookAnother(): void {
    URL.revokeObjectURL(this.booked?.ics ?? '');
    this.booked = undefined;
    this.draft = { ...EMPTY_DRAFT, patient_name: this.prefillName ?? '', patient_phone: this.prefillPhone ?? '' };
    void this.go(Step.Treatment);
  }

  private async copyReference(): Promise<void> {
    const reference = this.booked?.reference ?? '';
    try {
      await navigator.clipboard.writeText(reference);
    } catch {
      // No clipboard API or no permission: select the reference and copy the selection.
      const range = document.createRange();
      range.selectNodeContents(this.renderRoot.querySelector('[data-reference]')!);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      document.execCommand('copy');
    }
    this.copied = true;
  }

  override render(): TemplateResult {
    return this.booked ? this.renderBooked(this.booked) : this.renderForm();
  }

  private renderBooked(booked: Booked): TemplateResult {
    const { t, lang } = this.context;
    const dentist = this.dentists.find((d) => d.doctor_id === booked.doctor_id);
    return html`<div class="result" part="booking-result" role="status">
      <h3 id="result-heading" tabindex="-1">${t.bookedTitle}</h3>
      <p>${t.bookedSummary(formatDate(booked.date, lang), formatTime(booked.time, lang))}</p>
      ${renderAppointment([[t.treatment, booked.treatment?.treatment_name], [t.dentist, dentist?.doctor_name]], this.site, t)}
      <p>${t.referenceLabel}: <strong class="reference" data-reference>${booked.reference}</strong>
        <button class="button secondary" type="button" @click=${this.copyReference}>${t.copy}</button>
        <span data-copied>${this.copied ? t.copied : ''}</span></p>
      <p class="muted">${t.keepReference}</p>
      <p class="row">
        <a class="button secondary" href=${booked.ics} download="appointment.ics">${t.addToCalendar}</a>
        <button class="button secondary" type="button" @click=${this.bookAnother}>${t.bookAnother}</button>
      </p>
    </div>`;
  }

  private renderForm(): TemplateResult {
    const { t } = this.context;
    const errorCount = Object.values(this.errors).filter(Boolean).length;
    const headings = [t.treatment, t.dentist, t.date, t.time, t.details, t.review];
    return html`<form part="booking-form" novalidate @submit=${this.submit} aria-labelledby="step-heading${this.instance > 1 ? ' instance' : ''}">
      ${this.instance > 1 ? html`<span id="instance" hidden>(${this.instance})</span>` : nothing}
      ${this.site?.appointment_subtitle ? html`<p class="muted">${this.site.appointment_subtitle}</p>` : nothing}
      <p id="form-status" class="visually-hidden" aria-live="polite">${errorCount ? t.errSummary(errorCount) : ''}</p>
      ${this.failure
        ? html`<div id="failure" class="failure" role="alert" tabindex="-1" part="booking-error">
            ${this.failure}${this.renderNearest()}
          </div>`
        : nothing}
      <h3 id="step-heading" tabindex="-1"><span class="muted">${t.step(this.step + 1, STEPS)}</span> ${headings[this.step]}</h3>
      ${this.renderStep()}
      <div class="honeypot" aria-hidden="true">
        <label for="honeypot">Website</label>
        <input id="honeypot" name=${HONEYPOT_FIELD} tabindex="-1" autocomplete="off" />
      </div>
      <div class="row">
        ${this.step > Step.Treatment
          ? html`<button class="button secondary" type="button" @click=${() => this.go(this.step - 1)}>${t.back}</button>`
          : nothing}
        ${this.step === Step.Details ? html`<button class="button" type="submit">${t.next}</button>` : nothing}
        ${this.step === Step.Review
          ? html`<button class="button" type="submit" part="submit" ?disabled=${this.sending} aria-busy=${this.sending ? 'true' : 'false'}>
              ${this.sending ? t.sending : t.submit}
            </button>`
          : nothing}
      </div>
    </form>`;
  }

  private renderStep(): TemplateResult {
    const { t, lang } = this.context;
    const { draft } = this;
    switch (this.step) {
      case Step.Treatment:
        return this.choices('treatment_id', [['', t.noTreatment], ...this.treatments.map((x): Choice => [String(x.treatment_id), x.treatment_name, t.minutes(x.duration_minutes)])]);
      case Step.Dentist:
        return this.choices('doctor_id', [['', t.anyDentist], ...this.dentists.map((d): Choice => [String(d.doctor_id), d.doctor_name, d.specialization])]);
      case Step.Day:
        return this.renderDay();
      case Step.Time:
        return this.renderTimes();
      case Step.Details:
        return html`<div class="grid">
          ${this.textField('patient_name', t.patientName, { required: true, autocomplete: 'name', maxlength: LIMITS.patientName })}
          ${this.textField('patient_phone', t.patientPhone, { required: true, autocomplete: 'tel', type: 'tel', maxlength: LIMITS.patientPhone })}
          ${this.textField('address', t.patientAddress, { autocomplete: 'street-address', maxlength: LIMITS.address, wide: true })}
          <div class="field wide">
            <label for="note">${t.note} <span class="muted">(${t.optional})</span></label>
            <textarea id="note" name="note" maxlength=${LIMITS.note} rows="3" .value=${draft.note}
              aria-invalid=${this.errors.note ? 'true' : 'false'}
              aria-describedby=${this.describedBy('note') ?? nothing}
              @input=${(e: Event) => this.setField('note', (e.target as HTMLTextAreaElement).value)}
              @change=${() => this.checkField('note')} @blur=${() => this.checkField('note')}></textarea>
            ${this.errorText('note')}
          </div>
          ${this.privacyUrl ? this.consentField(this.privacyUrl) : nothing}
        </div>`;
      case Step.Review: {
        const dentist = this.dentists.find((d) => String(d.doctor_id) === draft.doctor_id);
        return detailList([
          [t.treatment, this.treatment?.treatment_name ?? t.noTreatment],
          [t.dentist, dentist?.doctor_name ?? t.anyDentist],
          [t.date, draft.appointment_date && formatDate(draft.appointment_date, lang)],
          [t.time, draft.appointment_time && formatTime(draft.appointment_time, lang)],
          [t.patientName, draft.patient_name],
          [t.patientPhone, draft.patient_phone],
          [t.patientAddress, draft.address],
          [t.note, draft.note],
        ]);
      }
    }
  }

  /** The treatment or dentist step: one button per choice, the current one pressed; a click chooses and goes on. */
  private choices(field: 'treatment_id' | 'doctor_id', options: Choice[]): TemplateResult {
    return html`<div class="choices" role="group" aria-labelledby="step-heading">
      ${options.map(([value, name, detail]) => html`<button class="button secondary choice" type="button" data-value=${value}
        aria-pressed=${this.draft[field] === value ? 'true' : 'false'} @click=${() => this.pick(field, value)}>
        <strong>${name}</strong>${detail ? html`<span class="muted">${detail}</span>` : nothing}</button>`)}
    </div>`;
  }

  private renderDay(): TemplateResult {
    const today = this.now();
    const last = addDays(today.date, LIMITS.bookingHorizonDays);
    const hours = this.site?.opening_hours ?? {};
    const minutes = this.treatment?.duration_minutes;
    const reason = (day: string): DayReason | undefined =>
      day < today.date ? 'past'
      : day > last ? 'too_far'
      : !dayHasSlot(hours, day) ? 'closed'
      : !dayHasSlot(hours, day, minutes) ? 'too_short'
      : day === today.date && !dayHasSlot(hours, day, minutes, today.time) ? 'past'
      : undefined;
    let cursor = this.cursor || this.draft.appointment_date;
    if (!cursor || cursor < today.date || cursor > last) {
      // The first day that can be chosen, within the next two months; else today.
      cursor = today.date;
      for (let day = today.date, n = 0; n < 62; day = addDays(day, 1), n++) if (!reason(day)) { cursor = day; break; }
    }
    return renderCalendar({
      cursor,
      selected: this.draft.appointment_date,
      first: today.date,
      last,
      lang: this.context.lang,
      t: this.context.t,
      reason,
      pick: (day) => this.pick('appointment_date', day),
      move: (day, byKey) => {
        this.cursor = day;
        if (byKey) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[role="grid"] [tabindex="0"]')?.focus());
      },
    });
  }

  /** Whether the BFF knows this start to be taken on the chosen day for the chosen dentist. */
  private isTaken(time: string): boolean {
    const { appointment_date: date, doctor_id: doctor } = this.draft;
    const known = this.slots.status === TaskStatus.COMPLETE ? this.slots.value : undefined;
    return this.lost.includes(`${date} ${doctor} ${time}`) || !!known?.slots.some((slot) => slot.time === time && slot.status === 'taken');
  }

  /** The chosen day's candidate starts for the treatment's length, on today only those still ahead. */
  private dayStarts(): string[] {
    const date = this.draft.appointment_date;
    const now = this.now();
    return candidateSlots(this.site?.opening_hours ?? {}, date, this.treatment?.duration_minutes).filter((time) => date !== now.date || time > now.time);
  }

  private renderTimes(): TemplateResult {
    const { t } = this.context;
    if (this.slots.status === TaskStatus.PENDING) return html`<p role="status">${t.loading}</p>`;
    const starts = this.dayStarts();
    return html`<div class="choices slots" role="group" aria-labelledby="step-heading">${starts.map((time) => this.slotButton(time))}</div>
      <span id="why-taken" hidden>${t.taken}</span>
      ${starts.every((time) => this.isTaken(time)) ? html`<p>${t.noTimes}</p>` : nothing}`;
  }

  private slotButton(time: string): TemplateResult {
    const taken = this.isTaken(time);
    return html`<button class="button secondary choice" type="button" data-time=${time} ?disabled=${taken} aria-describedby=${taken ? 'why-taken' : nothing}
      aria-pressed=${time === this.draft.appointment_time ? 'true' : 'false'}
      @click=${() => { this.lostTime = ''; this.pick('appointment_time', time); }}>${formatTime(time, this.context.lang)}</button>`;
  }

  /** After a 409: the three open starts nearest the one refused, one click each. */
  private renderNearest(): TemplateResult | typeof nothing {
    if (!this.lostTime || this.slots.status !== TaskStatus.COMPLETE) return nothing;
    const target = minutesOf(this.lostTime);
    const nearest = this.dayStarts()
      .filter((time) => !this.isTaken(time))
      .sort((a, b) => Math.abs(minutesOf(a) - target) - Math.abs(minutesOf(b) - target))
      .slice(0, 3)
      .sort();
    return nearest.length
      ? html`<p>${this.context.t.nearest}</p><div class="choices slots">${nearest.map((time) => this.slotButton(time))}</div>`
      : nothing;
  }

  private describedBy(field: DraftField): string | undefined {
    return this.errors[field] ? `${field}-error` : undefined;
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
    options: { required?: boolean; type?: string; autocomplete?: string; maxlength?: number; wide?: boolean },
  ): TemplateResult {
    const { required = false, type = 'text' } = options;
    return html`<div class="field ${options.wide ? 'wide' : ''}">
      ${this.label(field, text, required)}
      <input id=${field} name=${field} type=${type} .value=${String(this.draft[field])}
        ?required=${required}
        autocomplete=${options.autocomplete ?? nothing} maxlength=${options.maxlength ?? nothing}
        aria-invalid=${this.errors[field] ? 'true' : 'false'}
        aria-describedby=${this.describedBy(field) ?? nothing}
        @input=${(e: Event) => this.setField(field, (e.target as HTMLInputElement).value)}
        @change=${() => this.checkField(field)} @blur=${() => this.checkField(field)} />
      ${this.errorText(field)}
    </div>`;
  }

  private consentField(privacyUrl: string): TemplateResult {
    const { t } = this.context;
    return html`<div class="field consent">
      <input id="consent" type="checkbox" .checked=${this.draft.consent} required
        aria-invalid=${this.errors.consent ? 'true' : 'false'}
        aria-describedby=${this.errors.consent ? 'consent-error' : nothing}
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

customElements.define('clinic-booking-form', ClinicBookingForm);

declare global {
  interface HTMLElementTagNameMap {
    'clinic-booking-form': ClinicBookingForm;
  }
}

/** A choice button: its value, name and a detail line. */
type Choice = [value: string, name: string, detail?: string];

/**
 * A server's refusal of the booking in the patient's words: the BFF's
 * validation message is for integrators, so it is recognised, never shown.
 */
function refusal(message: string, t: WidgetContext['t']): string {
  return /past/i.test(message) ? t.errPast : /closing|opening hours|closed/i.test(message) ? t.errHours : t.errRefused;
}
