import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { Treatment, WebsiteSite } from '../../contract/index.js';
import type { BffStatusView } from '../../contract/bff.js';
import type { ChangeRequestBody } from '../../contract/bff-changes.js';
import type { ChangeView, PreferredStart } from '../../contract/bff-change-view.js';
import { isAppointmentStatus } from '../../contract/rules/appointment-status.js';
import { CHANGE_MESSAGE_MAX, formatReference, MANAGE_FRAGMENT, MAX_PREFERRED_STARTS, normaliseReference } from '../../contract/rules/bff-api.js';
import { normalisePatientText, patientTextProblem } from '../../contract/rules/patient-text.js';
import { SLOT_STEP_MINUTES } from '../../contract/rules/slots.js';
import { availability, lookUpStatus, type ClinicContent } from '../api.js';
import { busySeconds, toBffError, type BffError } from '../bff-error.js';
import { detailList, statusBadge, telLink, type Detail } from '../booking/appointment-view.js';
import type { ClinicBookingForm } from '../booking/booking-form.js';
import { bookingFormStyles } from '../booking/booking-form.styles.js';
import { failureText, failureWords } from '../booking/failure-text.js';
import type { FailureWords } from '../i18n/failures.js';
import { renderDayStep } from '../booking/steps/day-step.js';
import { emit } from '../events.js';
import { formatDate, formatTime, localToday } from '../format.js';
import { sharedStyles } from '../shared.styles.js';
import type { WidgetContext } from '../widget-context.js';
import { en } from './i18n/en.js';
import { loadManageTranslation } from './i18n/localize.js';
import type { ClosedReason, ManageTranslation } from './i18n/translation.js';
import { requestChange } from './manage-api.js';
import { openManage } from './manage-entry.js';
import { manageLink } from './manage-link.js';
import { cancelIcsFile } from './manage-ics.js';
import { manageStyles } from './manage.styles.js';
import { MovePicker, type MovePickerHost } from './move-picker.js';

/** What the view shows under the booking: its card with the actions, the confirm step of a cancellation, or the picker of wished starts. */
type View = 'card' | 'confirm' | 'move';

const NOTE = { multiline: true };

/**
 * A booking's manage view: the appointment as a card (status, treatment, dentist, day, time, the
 * clinic's address), then what the patient may still ask online, as the BFF's status view says
 * (`changes`): a cancellation (after a confirm step), or another time among up to three wished
 * starts picked in the booking form's calendar, with a message. A request taken shows as requested,
 * with its day, until the clinic's system says Cancelled; then "Book a new appointment" and a
 * calendar file that removes the entry the booking's file made. Inside the clinic's change window
 * the actions give way to its phone. The manage link, to keep, with a copy button.
 *
 * Loaded on demand, as a chunk of its own (manage-entry.ts), when a patient opens it: "Manage
 * booking" on the confirmation or the status card, or a page opened with a manage link.
 *
 * @internal Used by <clinic-booking>.
 */
export class ClinicBookingManage extends LitElement implements MovePickerHost {
  static override styles = [sharedStyles, bookingFormStyles, manageStyles];

  static override properties = {
    context: { attribute: false },
    content: { attribute: false },
    reference: { attribute: false },
    words: { state: true },
    booking: { state: true },
    loadFailure: { state: true },
    view: { state: true },
    sending: { state: true },
    failure: { state: true },
    callClinic: { state: true },
    message: { state: true },
    startsError: { state: true },
    messageError: { state: true },
    copied: { state: true },
    cancelIcs: { state: true },
  };

  /** The language, strings and BFF of the <clinic-booking> this view belongs to (set before it renders). */
  context!: WidgetContext;
  /** The clinic's content, for its address, phone, opening hours, treatments and dentists. */
  content: ClinicContent = {};
  /** The booking's reference, as the link or the patient gave it. */
  reference = '';

  /** The view's own strings in the widget's language, once loaded. */
  private words?: ManageTranslation;
  /** The booking's status view, once looked up. */
  private booking?: BffStatusView;
  /** Why it could not be looked up. */
  private loadFailure?: string;
  private view: View = 'card';
  private sending = false;
  /** Why the last request failed, in the patient's words; with the clinic's phone when `callClinic`. */
  private failure?: string;
  private callClinic = false;
  private message = '';
  private startsError?: string;
  private messageError?: string;
  private copied = false;
  /** A blob: URL of the calendar file that cancels the booking's entry, once it is Cancelled. */
  private cancelIcs = '';
  /** The button that opened the view, which gets focus back when it closes. */
  private opener?: HTMLElement;

  readonly picker = new MovePicker(this);

  get mt(): ManageTranslation {
    return this.words ?? en;
  }

  get site(): WebsiteSite | undefined {
    return this.content.site;
  }

  get bookedTreatment(): Treatment | undefined {
    return this.content.treatments?.find((treatment) => treatment.treatment_id === this.booking?.treatment_id);
  }

  get bookedDoctor(): string {
    return this.booking?.doctor_id ? String(this.booking.doctor_id) : '';
  }

  get picking(): boolean {
    return this.view === 'move';
  }

  /** The reference as the BFF issues it (grouped), for the link and the calendar file's UID. */
  private get canonical(): string {
    return formatReference(normaliseReference(this.reference));
  }

  private get changes(): ChangeView | undefined {
    return this.booking?.changes;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Opened by a manage link: the reference leaves the address bar, so that it lingers in no
    // bookmark, shared address or screenshot of it (the history entry is kept, without it).
    if (location.hash.startsWith(`#${MANAGE_FRAGMENT}=`)) history.replaceState(history.state, '', location.href.split('#')[0]);
    // The button of this widget that was pressed to open the view, deep in its shadow roots.
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    const root = this.getRootNode();
    for (let node: Element | undefined = active ?? undefined; node; node = (node.getRootNode() as ShadowRoot).host) {
      if (node.getRootNode() !== root) continue;
      if (active instanceof HTMLButtonElement) this.opener = active;
      break;
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    URL.revokeObjectURL(this.cancelIcs);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('context')) {
      const { lang } = this.context;
      void loadManageTranslation(lang).then((words) => {
        if (this.context.lang === lang) this.words = words;
      });
    }
    if (changed.has('reference') || (changed.has('context') && changed.get('context')?.apiBase !== this.context.apiBase)) void this.load();
  }

  protected override firstUpdated(): void {
    // In mode="button" the view shows in the booking dialog: opened by a manage link, it opens it.
    const dialog = this.closest('dialog');
    if (dialog && !dialog.open) dialog.showModal();
    void this.focusOn('#manage-heading');
  }

  /** Looks the booking up; `quietly` (after a request) keeps what shows if that fails. */
  private async load(quietly = false): Promise<void> {
    if (!quietly) this.booking = this.loadFailure = undefined;
    try {
      this.booking = await lookUpStatus(this.context.apiBase, this.reference);
      if (this.booking.status === 'Cancelled' && !this.cancelIcs) await this.makeCancelIcs(this.booking);
    } catch (error) {
      if (quietly) return;
      const failure = toBffError(error);
      const { status, code } = failure;
      const busy = busySeconds(failure);
      const { t } = this.context;
      this.loadFailure = status === 404 || status === 400 ? t.statusNotFound : busy !== undefined ? t.errBusy(busy) : status === 0 || status >= 500 ? t.errNetwork : t.errGeneric;
      emit(this, 'clinic-booking:error', { kind: 'status', status, code });
    }
  }

  /**
   * The calendar file that removes the entry the booking's file made: the same UID, METHOD:CANCEL,
   * STATUS:CANCELLED and a higher SEQUENCE. Its start in UTC needs the clinic's zone, which an
   * availability answer names; without one, in the clinic's wall-clock time (the UID is what counts).
   */
  private async makeCancelIcs(booking: BffStatusView): Promise<void> {
    const zone = await availability(this.context.apiBase, booking.date, '', '').then(
      (found) => found.time_zone,
      () => undefined,
    );
    const treatment = this.bookedTreatment;
    const ics = cancelIcsFile({
      title: [treatment?.treatment_name, this.site?.clinic_name].filter(Boolean).join(', '),
      address: this.site?.contact_address ?? '',
      date: booking.date,
      time: booking.time,
      minutes: treatment?.duration_minutes ?? SLOT_STEP_MINUTES,
      zone,
      reference: this.canonical,
      description: `${this.context.t.manage}: ${this.link}`,
    });
    URL.revokeObjectURL(this.cancelIcs);
    this.cancelIcs = URL.createObjectURL(new Blob([ics], { type: 'text/calendar' }));
  }

  private get link(): string {
    return manageLink(this.canonical, this.changes?.booking_page_url);
  }

  /** After the next render, moves focus to the element matching selector. */
  private async focusOn(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  private show(view: View, heading: string): void {
    this.view = view;
    this.failure = this.startsError = this.messageError = undefined;
    this.callClinic = false;
    if (view === 'move') {
      this.picker.reset();
      this.message = '';
    }
    void this.focusOn(heading);
  }

  /** Closes the view: back to what it was opened from, or a new booking ("Book a new appointment"). */
  private async close(bookNew = false): Promise<void> {
    const root = this.getRootNode() as ShadowRoot;
    const { opener } = this;
    openManage(this, '');
    await (root.host as LitElement | undefined)?.updateComplete;
    const form: ClinicBookingForm | null = root.querySelector('clinic-booking-form');
    await form?.updateComplete;
    if (bookNew && form?.flow.booked) return form.flow.bookAnother();
    // Back to the button that opened the view; a browser that does not focus a clicked button
    // (Safari) leaves none: then the form's heading, or the status card's button.
    const status = root.querySelector('clinic-booking-status')?.shadowRoot;
    const target = (!bookNew && opener?.isConnected && opener) || form?.shadowRoot?.querySelector('#result-heading, #step-heading') || status?.querySelector('.result button');
    (target as HTMLElement | null | undefined)?.focus();
  }

  private async copyLink(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.link);
    } catch {
      // No clipboard API or no permission: select the link and copy the selection.
      const input = this.renderRoot.querySelector<HTMLInputElement>('#manage-link')!;
      input.select();
      document.execCommand('copy');
    }
    this.copied = true;
  }

  private async send(body: ChangeRequestBody): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    this.failure = undefined;
    this.callClinic = false;
    try {
      const taken = await requestChange(this.context.apiBase, body);
      this.booking = { ...this.booking!, changes: requested(this.changes, body, taken.requested_at, taken.already_requested) };
      this.view = 'card';
      void this.focusOn('#manage-heading');
      // What the BFF holds now (the first request's times, when one was taken before).
      void this.load(true);
    } catch (error) {
      const failure = toBffError(error);
      const { status, code } = failure;
      const words = status ? await failureWords(this.context.lang) : undefined;
      this.failure = refusalText(failure, body.kind, this, words);
      this.callClinic = status === 429 || failure.reason === 'inside_change_window';
      emit(this, 'clinic-booking:error', { kind: 'change', status, code });
      if (code === 'validation_error') {
        // A refusal may mean the actions have closed since the view loaded (the window, a cancellation).
        await this.load(true);
        const changes = this.changes;
        if (body.kind === 'cancel' || !changes?.can_request_move) this.view = 'card';
      }
      void this.focusOn('#failure');
    } finally {
      this.sending = false;
    }
  }

  private sendMove(event: Event): void {
    event.preventDefault();
    const { mt, picker } = this;
    const { t } = this.context;
    const message = normalisePatientText(this.message, NOTE);
    const problem = patientTextProblem(message, NOTE);
    this.startsError = picker.starts.length ? undefined : mt.errNoStart;
    this.messageError = problem && problem !== 'blank' ? t.errHiddenCharacters : undefined;
    if (this.startsError) return void this.focusOn('#move-heading');
    if (this.messageError) return void this.focusOn('#message');
    void this.send({ reference: this.reference, kind: 'move', preferred_starts: picker.starts, ...(problem === 'blank' ? {} : { message }) });
  }

  override render(): TemplateResult {
    const { t } = this.context;
    return html`<div class="result manage">
      <h3 id="manage-heading" tabindex="-1">${t.manage}</h3>
      ${this.renderBody()}
    </div>`;
  }

  private renderBody(): TemplateResult {
    const { t } = this.context;
    const { booking, words } = this;
    if (this.loadFailure) {
      return html`<div class="failure" role="alert">${this.loadFailure}</div>
        <p class="row">
          <button class="button secondary" type="button" @click=${() => this.load()}>${t.retry}</button>
          <button class="button secondary" type="button" @click=${() => this.close()}>${t.close}</button>
        </p>`;
    }
    if (!booking || !words) return html`<p role="status">${t.loading}</p>`;
    return html`${this.renderCard(booking)}
      ${this.changes?.text ? html`<p class="clinic-text">${this.changes.text}</p>` : nothing}
      <div class="outcomes" aria-live="polite">${this.renderOutcomes(booking)}</div>
      ${this.failure
        ? html`<div id="failure" class="failure" role="alert" tabindex="-1">
            ${this.failure} ${this.callClinic && this.site?.contact_phone ? html`${t.callClinic} ${telLink(this.site.contact_phone)}` : nothing}
          </div>`
        : nothing}
      ${this.view === 'confirm' ? this.renderConfirm()
        : this.view === 'move' ? this.renderMove()
        : html`${this.renderActions(booking)}${this.renderLink()}
            <p class="row"><button class="button secondary" type="button" @click=${() => this.close()}>${t.close}</button></p>`}`;
  }

  /** The appointment, as the status card shows it. */
  private renderCard(booking: BffStatusView): TemplateResult {
    const { t, lang } = this.context;
    const status = booking.status;
    const dentist = this.content.dentists?.find((d) => d.doctor_id === booking.doctor_id);
    // Each value is isolated in its own direction, on the widget's side of the card (detailList).
    const rows: Detail[] = [
      [t.statusLabel, statusBadge(status, isAppointmentStatus(status) ? t.statusValue(status) : status)],
      [t.treatment, this.bookedTreatment?.treatment_name],
      [t.dentist, dentist?.doctor_name],
      [t.date, formatDate(booking.date, lang)],
      [t.time, formatTime(booking.time, lang)],
      [t.address, this.site?.contact_address],
    ];
    return detailList(rows);
  }

  /** What has been asked, or that it is cancelled: inside the live region, so each new outcome is announced. */
  private renderOutcomes(booking: BffStatusView): TemplateResult | typeof nothing {
    const { mt } = this;
    if (booking.status === 'Cancelled') {
      return html`<div class="outcome">
        <p><strong>${mt.cancelled}</strong></p>
        <p class="row">
          <button class="button" type="button" @click=${() => this.close(true)}>${mt.bookNew}</button>
          ${this.cancelIcs ? html`<a class="button secondary" href=${this.cancelIcs} download="appointment-cancelled.ics">${mt.removeFromCalendar}</a>` : nothing}
        </p>
      </div>`;
    }
    const changes = this.changes;
    if (!changes || (!changes.cancel_requested_at && !changes.move_requested_at)) return nothing;
    const day = (at: string) => formatDate(localToday(new Date(at)), this.context.lang);
    return html`<div class="outcome">
      ${changes.cancel_requested_at ? html`<p><strong>${mt.cancelRequested(day(changes.cancel_requested_at))}</strong></p>` : nothing}
      ${changes.move_requested_at
        ? html`<p><strong>${mt.moveRequested(day(changes.move_requested_at))}</strong></p>
            ${changes.move_preferred_starts.length
              ? html`<p>${mt.timesAsked}</p>
                  <ol class="asked">${changes.move_preferred_starts.map((start) => html`<li>${this.startText(start)}</li>`)}</ol>`
              : nothing}`
        : nothing}
      <p>${mt.requestedNote}</p>
    </div>`;
  }

  /** A start in full: "Tuesday, 3 December 2026, 09:30". */
  private startText(start: PreferredStart): string {
    const { lang } = this.context;
    return this.mt.startAt(formatDate(start.date, lang), formatTime(start.time, lang));
  }

  /** The actions still open, or why they are not (the clinic's phone inside its window). */
  private renderActions(booking: BffStatusView): TemplateResult | typeof nothing {
    const { t } = this.context;
    const { mt } = this;
    const changes = this.changes;
    const phone = this.site?.contact_phone;
    const call = (words: string) => (phone ? html`<p class="widget-direction">${words} ${telLink(phone)}</p>` : nothing);
    if (booking.status !== 'Scheduled') {
      return booking.status === 'Completed' ? html`<p>${mt.closed.appointment_completed}</p>` : nothing;
    }
    // A BFF that does not take change requests: the phone, as the status card says it.
    if (!changes) return call(t.changeByPhone);
    const reason = changes.closed_reason;
    if (reason === 'inside_change_window') {
      return html`<p>${mt.insideWindow(changes.min_notice_hours)}</p>${call(mt.callToChange)}`;
    }
    if (reason && Object.hasOwn(mt.closed, reason)) return html`<p>${mt.closed[reason as ClosedReason]}</p>`;
    // A cancellation asked for leaves nothing more to ask.
    if (changes.cancel_requested_at) return nothing;
    const cancel = changes.can_request_cancel;
    const move = changes.can_request_move && !changes.move_requested_at;
    return html`${cancel || move
        ? html`<p class="row actions">
            ${move ? html`<button class="button" type="button" @click=${() => this.show('move', '#move-heading')}>${mt.requestMove}</button>` : nothing}
            ${cancel ? html`<button class="button secondary" type="button" @click=${() => this.show('confirm', '#confirm-heading')}>${mt.requestCancel}</button>` : nothing}
          </p>`
        : nothing}
      ${!changes.move_offered && !changes.move_requested_at ? call(mt.moveByPhone) : nothing}`;
  }

  /** The confirm step of a cancellation: what happens, and the two answers. */
  private renderConfirm(): TemplateResult {
    const { mt, sending } = this;
    return html`<div class="step" role="group" aria-labelledby="confirm-heading">
      <h4 id="confirm-heading" tabindex="-1">${mt.confirmTitle}</h4>
      <p>${mt.confirmText}</p>
      <p class="row">
        <button class="button danger" type="button" ?disabled=${sending} aria-busy=${sending ? 'true' : 'false'}
          @click=${() => this.send({ reference: this.reference, kind: 'cancel' })}>${sending ? mt.sending : mt.confirmYes}</button>
        <button class="button secondary" type="button" @click=${() => this.show('card', '#manage-heading')}>${mt.keep}</button>
      </p>
    </div>`;
  }

  /** The picker of wished starts: the chosen ones as chips in order, the calendar and times, the message. */
  private renderMove(): TemplateResult {
    const { t } = this.context;
    const { mt, picker, sending } = this;
    const { starts } = picker;
    return html`<form class="step" novalidate aria-labelledby="move-heading" @submit=${(event: Event) => this.sendMove(event)}>
      <h4 id="move-heading" tabindex="-1" aria-describedby="move-hint">${mt.requestMove}</h4>
      <p id="move-hint" class="muted">${mt.moveHint(MAX_PREFERRED_STARTS)}</p>
      <div class="chosen">
        <h5 id="chosen-heading">${mt.yourTimes}</h5>
        ${starts.length
          ? html`<ol class="chips" aria-labelledby="chosen-heading">
              ${starts.map((start, i) => {
                const label = picker.label(start);
                return html`<li class="chip"><span class="n" aria-hidden="true">${i + 1}</span><span>${label}</span>
                  <button type="button" aria-label=${mt.remove(label)} @click=${() => this.removeStart(start)}>×</button></li>`;
              })}
            </ol>`
          : html`<p class="muted">${mt.noStartYet}</p>`}
        ${starts.length >= MAX_PREFERRED_STARTS ? html`<p class="muted">${mt.full(MAX_PREFERRED_STARTS)}</p>` : nothing}
        <p id="starts-error" class="error" role="alert">${this.startsError ?? ''}</p>
        <p class="visually-hidden" aria-live="polite">${picker.announcement}</p>
      </div>
      ${renderDayStep(picker)}
      <div class="field">
        <label for="message">${mt.message} <span class="muted">(${t.optional})</span></label>
        <textarea id="message" name="message" rows="3" maxlength=${CHANGE_MESSAGE_MAX} .value=${this.message}
          aria-invalid=${this.messageError ? 'true' : 'false'} aria-describedby=${this.messageError ? 'message-error' : nothing}
          @input=${(event: Event) => (this.message = (event.target as HTMLTextAreaElement).value)}></textarea>
        ${this.messageError ? html`<p id="message-error" class="error">${this.messageError}</p>` : nothing}
      </div>
      <p class="row">
        <button class="button" type="submit" ?disabled=${sending} aria-busy=${sending ? 'true' : 'false'}>${sending ? mt.sending : mt.send}</button>
        <button class="button secondary" type="button" @click=${() => this.show('card', '#manage-heading')}>${t.back}</button>
      </p>
    </form>`;
  }

  /** A chip's ×: the start removed, and focus kept in the list (the next chip's button, else the heading). */
  private removeStart(start: PreferredStart): void {
    const at = this.picker.starts.findIndex((s) => s.date === start.date && s.time === start.time);
    this.picker.remove(start);
    const next = this.picker.starts.length ? `.chip:nth-child(${Math.min(at, this.picker.starts.length - 1) + 1}) button` : '#chosen-heading';
    void this.focusOn(next);
  }

  /** The manage link, to keep: a read-only field to select, and a copy button. */
  private renderLink(): TemplateResult {
    const { t } = this.context;
    const { mt } = this;
    return html`<div class="field link">
      <label for="manage-link">${mt.link}</label>
      <div class="row">
        <input id="manage-link" readonly .value=${this.link} aria-describedby="link-hint" @focus=${(event: Event) => (event.target as HTMLInputElement).select()} />
        <button class="button secondary" type="button" @click=${() => this.copyLink()}>${mt.copyLink}</button>
        <span aria-live="polite">${this.copied ? t.copied : ''}</span>
      </div>
      <p id="link-hint" class="muted">${mt.linkHint}</p>
    </div>`;
  }
}

/** The status view's changes once a request is taken: requested on that day, and no longer open. */
function requested(changes: ChangeView | undefined, body: ChangeRequestBody, at: string, before: boolean): ChangeView | undefined {
  if (!changes) return changes;
  if (body.kind === 'cancel') return { ...changes, cancel_requested_at: changes.cancel_requested_at ?? at, can_request_cancel: false, can_request_move: false };
  // Taken before: the times are the first request's, which the status view names (or will, once looked up again).
  const starts = before && changes.move_preferred_starts.length ? changes.move_preferred_starts : (body.preferred_starts ?? []);
  return { ...changes, move_requested_at: changes.move_requested_at ?? at, move_preferred_starts: starts, can_request_move: false };
}

/**
 * A refused or failed change request in the patient's words (failure-text.ts), but for the one
 * reason both kinds share: a cancellation's in_past is the appointment's, a move's a wished start's.
 */
function refusalText(failure: BffError, kind: ChangeRequestBody['kind'], view: ClinicBookingManage, words?: FailureWords): string {
  const { t } = view.context;
  if (failure.code === 'validation_error' && failure.reason === 'in_past' && kind === 'cancel') return view.mt.closed.in_past;
  return failure.status === 404 ? t.statusNotFound : failureText(failure, t, words);
}

customElements.define('clinic-booking-manage', ClinicBookingManage);

declare global {
  interface HTMLElementTagNameMap {
    'clinic-booking-manage': ClinicBookingManage;
  }
}
