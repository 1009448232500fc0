import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { Dentist, Treatment, WebsiteSite } from '../../contract/index.js';
import type { BffStatusView } from '../../contract/bff.js';
import { lookUpStatus } from '../api.js';
import { busySeconds, toBffError } from '../bff-error.js';
import { emit } from '../events.js';
import { renderAppointment, statusBadge } from '../booking/appointment-view.js';
import { bookingFormStyles } from '../booking/booking-form.styles.js';
import { formatDate, formatTime } from '../format.js';
import { sharedStyles } from '../shared.styles.js';
import { DEFAULT_CONTEXT, type WidgetContext } from '../widget-context.js';
import { isAppointmentStatus } from '../../contract/rules/appointment-status.js';
import { formatReference, LEGACY_REFERENCE_PATTERN, normaliseReference, REFERENCE_PATTERN } from '../../contract/rules/bff-api.js';
import { statusLookupStyles } from './status-lookup.styles.js';
import { openManage } from '../manage/manage-entry.js';

/**
 * Looks up a booking by its reference and shows, in a card like the confirmation's, its status as
 * a badge, the name, date and time, and how to change or cancel while it is Scheduled: the phone, and
 * "Manage booking" when the BFF says what may be asked online (its `changes`).
 *
 * @internal Used by <clinic-booking>.
 */
export class ClinicBookingStatus extends LitElement {
  static override styles = [sharedStyles, bookingFormStyles, statusLookupStyles];

  // Lit's reactive properties, declared statically rather than with decorators: the decorator
  // helpers cost half a kilobyte of the widget's 25 KB budget.
  static override properties = {
    context: { attribute: false },
    reference: { attribute: false },
    site: { attribute: false },
    treatments: { attribute: false },
    dentists: { attribute: false },
    result: { state: true },
    failure: { state: true },
    looking: { state: true },
    invalid: { state: true },
  };

  /** The language, strings and BFF of the <clinic-booking> this lookup belongs to. */
  context: WidgetContext = DEFAULT_CONTEXT;
  /** A reference to fill in, e.g. the one just booked. */
  reference = '';
  /** The clinic's settings when loaded, for its address and phone. */
  site?: WebsiteSite;

  /** The clinic's lists when loaded, to name the treatment and dentist the BFF says were booked. */
  treatments: Treatment[] = [];
  dentists: Dentist[] = [];

  private result?: BffStatusView;
  /** The reference the result is of, as looked up. */
  private found = '';
  private failure?: string;
  private looking = false;
  /** The field's own error: empty, or not in the shape of a reference. */
  private invalid?: string;

  private async lookUp(event: Event): Promise<void> {
    event.preventDefault();
    if (this.looking) return;
    const reference = normaliseReference(new FormData(event.target as HTMLFormElement).get('reference') as string);
    const { t } = this.context;
    // A new attempt: the last one's failure and result go, whatever comes of it.
    this.failure = this.result = undefined;
    this.invalid =
      !reference ? t.errRequired
      : LEGACY_REFERENCE_PATTERN.test(reference) || REFERENCE_PATTERN.test(formatReference(reference)) ? undefined
      : t.errReference;
    if (this.invalid) {
      this.renderRoot.querySelector('input')!.focus();
      return;
    }
    this.looking = true;
    try {
      this.result = await lookUpStatus(this.context.apiBase, (this.found = reference));
    } catch (error) {
      const failure = toBffError(error);
      const { status, code } = failure;
      const busy = busySeconds(failure);
      this.failure =
        status === 404 ? t.statusNotFound
        : busy !== undefined ? t.errBusy(busy)
        : status === 0 || status >= 500 ? t.errNetwork
        : t.errGeneric;
      emit(this, 'clinic-booking:error', { kind: 'status', status, code });
    } finally {
      this.looking = false;
    }
  }

  override render(): TemplateResult {
    const { t, lang } = this.context;
    const scheduled = this.result?.status === 'Scheduled';
    return html`<form part="status-form" novalidate @submit=${this.lookUp}>
        <label for="reference">${t.referenceInput}</label>
        <div class="row">
          <input id="reference" name="reference" required autocomplete="off" spellcheck="false" .value=${this.reference}
            aria-invalid=${this.invalid ? 'true' : 'false'} aria-describedby=${this.invalid ? 'reference-error' : nothing} />
          <button class="button" type="submit" ?disabled=${this.looking}>${t.lookUp}</button>
        </div>
        <p id="reference-error" class="error" aria-live="polite">${this.invalid}</p>
      </form>
      <div aria-live="polite" part="status-result">
        ${this.failure ? html`<p class="failure" role="alert">${this.failure}</p>` : nothing}
        ${this.result
          ? html`<div class="result">
              ${renderAppointment(
              [
                [t.statusLabel, statusBadge(this.result.status, statusText(this.result.status, t))],
                [t.nameLabel, this.result.name],
                [t.dateLabel, formatDate(this.result.date, lang)],
                [t.timeLabel, formatTime(this.result.time, lang)],
                [t.treatment, this.treatments.find((x) => x.treatment_id === this.result!.treatment_id)?.treatment_name],
                [t.dentist, this.dentists.find((d) => d.doctor_id === this.result!.doctor_id)?.doctor_name],
              ],
              this.site,
              t,
              scheduled,
              scheduled && this.result.changes ? () => openManage(this, this.found) : undefined,
            )}
            </div>`
          : nothing}
      </div>`;
  }
}

/** A status in the visitor's words; one the contract does not name is shown as it came, not hidden. */
function statusText(status: string, t: WidgetContext['t']): string {
  return isAppointmentStatus(status) ? t.statusValue(status) : status;
}

customElements.define('clinic-booking-status', ClinicBookingStatus);

declare global {
  interface HTMLElementTagNameMap {
    'clinic-booking-status': ClinicBookingStatus;
  }
}
