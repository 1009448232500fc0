import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { COMPLETE, LoadTask } from '../load-task.js';
import type { Dentist, Treatment, WebsiteSite } from '../../contract/index.js';
import type { BookingResult } from '../../contract/bff.js';
import { clinicLocalTime } from '../../contract/rules/clinic-time.js';
import { candidateSlots } from '../../contract/rules/slots.js';
import { availability, availabilityDays, book, type Availability } from '../api.js';
import { toBffError } from '../bff-error.js';
import { emit } from '../events.js';
import { localToday } from '../format.js';
import { mailLanguageOf } from '../i18n/localize.js';
import type { Translation } from '../i18n/translation.js';
import type { WidgetContext } from '../widget-context.js';
import type { Choices } from './choices-summary.js';
import { STEPS, stepAfter, stepBefore, storedStep, type Step } from './booking-steps.js';
import { bookingBody, EMPTY_DRAFT, validateDraft, type BookingDraft, type DraftField, type FieldErrors } from './booking-rules.js';
import { draftStorage, type StoredDraft } from './draft-storage.js';
import { autoDay } from './steps/day-step.js';
import { failureText, failureWords } from './failure-text.js';

/** What the flow reads from the element that owns it: the inputs <clinic-booking> hands the form. */
export interface BookingFlowHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly context: WidgetContext;
  readonly site?: WebsiteSite;
  readonly currency?: string;
  readonly treatments: Treatment[];
  readonly dentists: Dentist[];
  readonly prefillName?: string;
  readonly prefillPhone?: string;
  readonly privacyUrl?: string;
  readonly successUrl?: string;
  /** The site sends patients e-mail (the content's offers.confirmation_email): the details step offers it. */
  readonly emailOffered?: boolean;
}

/** A booking made: the BFF's answer and what the confirmation shows. */
export interface Booked extends BookingResult {
  date: string;
  time: string;
  treatment?: Treatment;
  /** A blob: URL of the .ics file, revoked when the patient books another; empty when its builder could not be fetched. */
  ics: string;
  /** Where the confirmation goes, when the patient asked for one. */
  email?: string;
}

/**
 * The calendar file's builder, a part of its own (calendar-file.ts): fetched when the details step
 * shows, so it is here by the time the booking is made. Fetched once: the browser keeps the module.
 */
const calendarFile = () => import('./calendar-file.js');

/** The treatment and dentist choices, each made on its own step. */
export type ChoiceField = 'treatment_id' | 'doctor_id';
const CHOICE_STEP: Record<ChoiceField, Step> = { treatment_id: 'treatment', doctor_id: 'dentist' };

/**
 * The flow's state: read-only to the views, and changed here only through set(), which asks the
 * element to render (a controller has no reactive properties of its own).
 */
type FlowState = Pick<BookingFlow, 'step' | 'draft' | 'errors' | 'sending' | 'failure' | 'callClinic' | 'booked' | 'cursor' | 'timeCursor' | 'lostTime' | 'copied'>;

/**
 * The booking form's behaviour, apart from how it looks: the steps and the
 * moves between them, the draft (kept across reloads in sessionStorage),
 * the day's slots, submitting with one Idempotency-Key per booking (a retry
 * never books twice), and what a failure means for the patient. The step
 * views (steps/) render its state and call its methods.
 */
export class BookingFlow implements ReactiveController {
  readonly step: Step = 'treatment';
  readonly draft: BookingDraft = { ...EMPTY_DRAFT };
  readonly errors: FieldErrors = {};
  readonly sending: boolean = false;
  /** Why the last booking failed, in the patient's words. */
  readonly failure?: string;
  /** The failure ends with the clinic's phone as a link (too many attempts: the phone is the way on). */
  readonly callClinic: boolean = false;
  readonly booked?: Booked;
  /** The calendar's focused day (its month is the one shown). */
  readonly cursor: string = '';
  /** The time with the roving tabindex among the day's times; empty: the chosen one, else the first free. */
  readonly timeCursor: string = '';
  /** The start refused by the last 409, for which the nearest open starts are offered. */
  readonly lostTime: string = '';
  /** The booking reference has been copied. */
  readonly copied: boolean = false;

  /**
   * The furthest step this booking has reached (its index in STEPS): a step before it was passed, so its
   * choice was made, "Not sure yet" and "Any dentist" included. Before that, those equal the empty draft
   * and yet nobody chose them.
   */
  private reached = 0;
  /** The clinic's IANA time zone, once an availability answer has named it. */
  private zone?: string;
  /** Slots this form was refused (409) since they were last fetched: `date doctor time`. */
  private lost: string[] = [];
  private attempt?: StoredDraft['attempt'];
  /** The day chosen for the patient on the day step (autoDay), until they choose a day or a time themselves. */
  private auto = '';

  /**
   * The chosen day's slots as the BFF knows them, fetched on the day step;
   * before a day is chosen, while the clinic's zone is unknown, today's, to learn it.
   */
  readonly slots: LoadTask<readonly [string, string, string, string], Availability | undefined>;

  /**
   * The shown month's open starts per day (GET /availability/days), so that a day with none is muted
   * before the patient opens it. A BFF without the route (404) or any failure leaves the calendar to
   * the opening hours alone, as before the route existed.
   */
  readonly days: LoadTask<readonly [string, string, string, string], Map<string, number> | undefined>;

  readonly host: BookingFlowHost;

  constructor(host: BookingFlowHost) {
    this.host = host;
    host.addController(this);
    this.slots = new LoadTask(host, {
      task: async ([apiBase, date, doctor, treatment], { signal }) => (date ? availability(apiBase, date, doctor, treatment, signal) : undefined),
      args: () => {
        const date = this.step !== 'day' ? '' : this.draft.appointment_date || (this.zone ? '' : localToday());
        return [this.apiBase, date, this.draft.doctor_id, this.draft.treatment_id] as const;
      },
      onComplete: (found) => {
        if (found) this.zone = found.time_zone;
      },
    });
    this.days = new LoadTask(host, {
      task: async ([apiBase, month, doctor, treatment], { signal }) => (month ? availabilityDays(apiBase, month, doctor, treatment, signal) : undefined),
      args: () => {
        const month = this.step === 'day' ? (this.cursor || this.draft.appointment_date || this.now().date).slice(0, 7) : '';
        return [this.apiBase, month, this.draft.doctor_id, this.draft.treatment_id] as const;
      },
    });
  }

  /**
   * On the day step, before the tasks look at their arguments: with no day chosen, the first that can
   * be booked is chosen, and one so chosen that turns out full gives way to the next. The calendar's
   * cursor follows it unless the patient has moved the cursor; focus stays where it is.
   */
  hostUpdate(): void {
    const day = this.step === 'day' && autoDay(this, this.auto);
    if (!day) return;
    const { appointment_date: chosen } = this.draft;
    this.auto = day;
    this.set({ cursor: chosen && this.cursor !== chosen ? this.cursor : day, timeCursor: '', draft: { ...this.draft, appointment_date: day, appointment_time: '' } });
  }

  /** Open starts per day of the shown month as the BFF counted them, or undefined when it could not say. */
  dayCounts(): Map<string, number> | undefined {
    return this.days.status === COMPLETE ? this.days.value : undefined;
  }

  private get apiBase(): string {
    return this.host.context.apiBase;
  }

  get t(): Translation {
    return this.host.context.t;
  }

  get lang(): string {
    return this.host.context.lang;
  }

  private set(state: Partial<FlowState>): void {
    Object.assign(this, state);
    this.reached = Math.max(this.reached, STEPS.indexOf(this.step));
    this.host.requestUpdate();
  }

  /** A draft kept in this tab (a reload) comes back where it was; the page's prefill fills what it left empty. */
  hostConnected(): void {
    const stored = draftStorage.load(this.apiBase);
    if (stored) {
      this.attempt = stored.attempt;
      this.set({ draft: { ...EMPTY_DRAFT, ...stored.draft }, step: storedStep(stored.step) ?? 'treatment' });
    }
    const { draft } = this;
    this.set({
      draft: {
        ...draft,
        patient_name: draft.patient_name || this.host.prefillName || '',
        patient_phone: draft.patient_phone || this.host.prefillPhone || '',
      },
    });
  }

  /** Whether `value` is the treatment or dentist chosen: the draft's, and made, not only the empty draft's default. */
  isChosen(field: ChoiceField, value: string): boolean {
    return this.draft[field] === value && (value !== '' || this.reached > STEPS.indexOf(CHOICE_STEP[field]));
  }

  /** A treatment or dentist given by the page: chosen, and its step skipped if the form is on it. */
  preselect(field: ChoiceField, id: number): void {
    const step = CHOICE_STEP[field];
    this.set({ draft: { ...this.draft, [field]: String(id) }, step: this.step === step ? stepAfter(step) : this.step });
  }

  /** Chooses a treatment or dentist, as "Book" on its card does, and goes to the step after it. */
  choose(field: ChoiceField, id: number): void {
    this.setField(field, String(id));
    void this.go(stepAfter(CHOICE_STEP[field]));
  }

  /** After the next render, moves focus to the form's element matching selector. */
  async focus(selector: string): Promise<void> {
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** Shows a step and moves focus to its heading, which announces it. */
  private async go(step: Step): Promise<void> {
    if (step === 'details') calendarFile().catch(() => {});
    this.set({ step });
    this.save();
    await this.focus('#step-heading');
  }

  back(): void {
    void this.go(stepBefore(this.step));
  }

  private save(): void {
    draftStorage.save(this.apiBase, { draft: this.draft, step: this.step, attempt: this.attempt });
  }

  /** The clinic's date and time now: in its zone once known, else the visitor's own clock. */
  now(): { date: string; time: string } {
    const now = new Date();
    return this.zone ? clinicLocalTime(now, this.zone) : { date: localToday(now), time: now.toTimeString().slice(0, 5) };
  }

  get treatment(): Treatment | undefined {
    return this.host.treatments.find((x) => String(x.treatment_id) === this.draft.treatment_id);
  }

  get dentist(): Dentist | undefined {
    return this.host.dentists.find((d) => String(d.doctor_id) === this.draft.doctor_id);
  }

  /** What the patient has chosen so far, for the summary and the review. */
  choices(): Choices {
    return { treatment: this.treatment, dentist: this.dentist, date: this.draft.appointment_date, time: this.draft.appointment_time };
  }

  /** What the draft is checked against; emailWanted: the patient ticked the e-mail box where the site offers it. */
  private rules(draft = this.draft) {
    return { consentRequired: !!this.host.privacyUrl, emailWanted: !!this.host.emailOffered && draft.email_consent, t: this.t };
  }

  /**
   * A typed or ticked value: kept, and the errors shown checked again (the e-mail address's goes
   * with the box that asks for it unticked).
   */
  setField(field: DraftField, value: string | boolean): void {
    const draft = { ...this.draft, [field]: value };
    const found = validateDraft(draft, this.rules(draft));
    const errors = { ...this.errors };
    for (const shown in errors) errors[shown as DraftField] &&= found[shown as DraftField];
    this.set({ draft, errors });
    this.save();
  }

  /** A field left or changed: its error shown, or cleared. */
  checkField(field: DraftField): void {
    this.set({ errors: { ...this.errors, [field]: validateDraft(this.draft, this.rules())[field] } });
  }

  /**
   * A choice on the treatment, dentist or time step: kept, and on to the next step. A day stays on
   * its step, where its times show beside (or below) the calendar; focus stays on the day.
   */
  pick(field: DraftField, value: string): void {
    if (field === 'appointment_date') {
      this.auto = '';
      // The calendar opens on the day chosen; a new day needs a new time.
      this.set({ cursor: value, timeCursor: '', draft: value === this.draft.appointment_date ? this.draft : { ...this.draft, appointment_time: '' } });
    }
    this.setField(field, value);
    this.set({ failure: undefined, callClinic: false });
    if (field !== 'appointment_date') void this.go(stepAfter(this.step));
  }

  /** A start chosen on the time step, or among the nearest offered after a 409. */
  pickTime(time: string): void {
    this.auto = '';
    // Back on the day, the times' tab stop is the chosen time.
    this.set({ lostTime: '', timeCursor: '' });
    this.pick('appointment_time', time);
  }

  /** The calendar's cursor moved; by a key inside the grid, focus follows it. */
  moveCursor(day: string, byKey: boolean): void {
    this.set({ cursor: day });
    if (byKey) void this.focus('[role="grid"] [tabindex="0"]');
  }

  /** The day's times: the roving tabindex moved by a key, and focus with it; or by a period's header, which keeps focus. */
  moveTime(time: string, byKey = true): void {
    this.set({ timeCursor: time });
    if (byKey) void this.focus(`.times [data-time="${time}"]`);
  }

  /** Whether this start of the chosen day is the one chosen (its button pressed). */
  isPicked(time: string): boolean {
    return time === this.draft.appointment_time;
  }

  /** Whether the BFF knows this start to be taken on the chosen day for the chosen dentist. */
  isTaken(time: string): boolean {
    const { appointment_date: date, doctor_id: doctor } = this.draft;
    const known = this.slots.status === COMPLETE ? this.slots.value : undefined;
    return this.lost.includes(`${date} ${doctor} ${time}`) || !!known?.slots.some((slot) => slot.time === time && slot.status === 'taken');
  }

  /** The chosen day's candidate starts for the treatment's length, on today only those still ahead. */
  dayStarts(): string[] {
    const date = this.draft.appointment_date;
    const now = this.now();
    return candidateSlots(this.host.site?.opening_hours ?? {}, date, this.treatment?.duration_minutes).filter((time) => date !== now.date || time > now.time);
  }

  /** Enter or the step's button: from the details, on to the review; from the review, book. */
  async submit(event: Event): Promise<void> {
    event.preventDefault();
    if (this.sending) return;
    const errors = validateDraft(this.draft, this.rules());
    this.set({ errors, failure: undefined, callClinic: false });
    const invalid = Object.keys(errors).filter((field) => errors[field as DraftField]);
    if (invalid.length > 0) {
      if (this.step !== 'details') await this.go('details');
      return this.focus(`#${invalid[0]}`);
    }
    if (this.step !== 'review') return this.go('review');
    if (!this.draft.appointment_time) return this.go('day');

    const honeypot = this.host.renderRoot.querySelector<HTMLInputElement>('#honeypot')?.value ?? '';
    const body = bookingBody(this.draft, honeypot, this.rules().emailWanted ? mailLanguageOf(this.lang) : undefined);
    const bodyText = JSON.stringify(body);
    // The same booking retried keeps its key (the server replays the first
    // answer); a changed booking is a new one with a new key.
    if (this.attempt?.body !== bodyText) this.attempt = { key: crypto.randomUUID(), body: bodyText };
    this.save();

    this.set({ sending: true });
    try {
      const result = await book(this.apiBase, body, this.attempt.key);
      await this.succeeded(result, body);
    } catch (error) {
      await this.failed(error);
    } finally {
      this.set({ sending: false });
    }
  }

  private async succeeded(result: BookingResult, body: ReturnType<typeof bookingBody>): Promise<void> {
    draftStorage.clear(this.apiBase);
    this.attempt = undefined;
    const { appointment_date: date, appointment_time: time } = body;
    const booked = { ...result, date, time, treatment: this.treatment, email: body.patient_email };
    // Without its builder (it could not be fetched), the confirmation goes without a calendar file.
    const ics = await calendarFile().then(({ calendarFileUrl }) => calendarFileUrl(booked, this.host.site, this.zone, this.t.manage), () => '');
    this.set({ booked: { ...booked, ics }, copied: false });
    const proceed = emit(
      this.host,
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
    if (proceed && this.host.successUrl) {
      window.location.assign(this.host.successUrl);
      return;
    }
    void this.focus('#result-heading');
  }

  private async failed(error: unknown): Promise<void> {
    const failure = toBffError(error);
    const { status, code } = failure;
    // The BFF answered (a refusal, a time taken, too many attempts, no outcome): its words come now.
    const words = status ? await failureWords(this.lang) : undefined;
    // Too many attempts: the phone is the way on, so it comes with the words (as a tel: link).
    this.set({ failure: failureText(failure, this.t, words), callClinic: code === 'rate_limited' || status === 429 });
    emit(this.host, 'clinic-booking:error', { kind: 'booking', status, code });
    if (code === 'slot_unavailable') {
      // Taken: greyed out from now on, the day's slots fetched again, and the nearest open ones offered.
      const { appointment_date: date, doctor_id: doctor, appointment_time: time } = this.draft;
      this.lost = [...this.lost, `${date} ${doctor} ${time}`];
      this.set({ lostTime: time, step: 'day' });
      this.save();
      void this.slots.run();
    }
    await this.focus('#failure');
  }

  /** From the confirmation: an empty form (but for the page's prefill), at the first step. */
  bookAnother(): void {
    URL.revokeObjectURL(this.booked?.ics ?? '');
    // A new booking: nothing is chosen yet, "Not sure yet" and "Any dentist" not either.
    this.reached = 0;
    this.set({ booked: undefined, step: 'treatment', draft: { ...EMPTY_DRAFT, patient_name: this.host.prefillName ?? '', patient_phone: this.host.prefillPhone ?? '' } });
    void this.go('treatment');
  }

  /** The reference is on the clipboard. */
  markCopied(): void {
    this.set({ copied: true });
  }
}
