import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AppointmentStatusView, WebsiteSite } from '../../contract/index.js';
import { lookUpStatus } from '../api.js';
import { busySeconds, toBffError } from '../bff-error.js';
import { emit } from '../events.js';
import { renderAppointment } from '../booking/appointment-view.js';
import { bookingFormStyles } from '../booking/booking-form.styles.js';
import { formatDate, formatTime } from '../format.js';
import { sharedStyles } from '../shared.styles.js';
import { DEFAULT_CONTEXT, type WidgetContext } from '../widget-context.js';
import { isAppointmentStatus } from '../../contract/rules/appointment-status.js';
import { statusLookupStyles } from './status-lookup.styles.js';

/**
 * Looks up a booking by its reference and shows status, name, date and time.
 *
 * @internal Used by <clinic-booking>.
 */
@customElement('clinic-booking-status')
export class ClinicBookingStatus extends LitElement {
  static override styles = [sharedStyles, bookingFormStyles, statusLookupStyles];

  /** The language, strings and BFF of the <clinic-booking> this lookup belongs to. */
  @property({ attribute: false }) context: WidgetContext = DEFAULT_CONTEXT;
  /** A reference to fill in, e.g. the one just booked. */
  @property({ attribute: false }) reference = '';
  /** The clinic's settings when loaded, for its address and phone. */
  @property({ attribute: false }) site?: WebsiteSite;

  @state() private result?: AppointmentStatusView;
  @state() private failure?: string;
  @state() private looking = false;

  private async lookUp(event: Event): Promise<void> {
    event.preventDefault();
    const reference = (new FormData(event.target as HTMLFormElement).get('reference') as string).trim();
    if (!reference || this.looking) return;
    this.looking = true;
    this.failure = undefined;
    this.result = undefined;
    try {
      this.result = await lookUpStatus(this.context.apiBase, reference);
    } catch (error) {
      const failure = toBffError(error);
      const { status, code } = failure;
      const { t } = this.context;
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
    return html`<form part="status-form" @submit=${this.lookUp}>
        <label for="reference">${t.referenceInput}</label>
        <div class="row">
          <input id="reference" name="reference" required autocomplete="off" spellcheck="false" .value=${this.reference} />
          <button class="button" type="submit" ?disabled=${this.looking}>${t.lookUp}</button>
        </div>
      </form>
      <div aria-live="polite" part="status-result">
        ${this.failure ? html`<p class="failure" role="alert">${this.failure}</p>` : nothing}
        ${this.result
          ? renderAppointment(
              [
                [t.statusLabel, html`<span data-status>${statusText(this.result.status, t)}</span>`],
                [t.nameLabel, this.result.name],
                [t.dateLabel, formatDate(this.result.date, lang)],
                [t.timeLabel, formatTime(this.result.time, lang)],
              ],
              this.site,
              t,
            )
          : nothing}
      </div>`;
  }
}

/** A status in the visitor's words; one the contract does not name is shown as it came, not hidden. */
function statusText(status: string, t: WidgetContext['t']): string {
  return isAppointmentStatus(status) ? t.statusValue(status) : status;
}

declare global {
  interface HTMLElementTagNameMap {
    'clinic-booking-status': ClinicBookingStatus;
  }
}
