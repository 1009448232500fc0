import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AppointmentStatusView } from '../../contract/index.js';
import { BffError, lookUpStatus } from '../api.js';
import { emit } from '../events.js';
import { formatDate } from '../format.js';
import { en } from '../i18n/en.js';
import type { Translation } from '../i18n/translation.js';
import { sharedStyles } from '../shared.styles.js';
import { statusLookupStyles } from './status-lookup.styles.js';

/**
 * Looks up a booking by its reference and shows status, name, date and time.
 *
 * @internal Used by <clinic-booking>.
 */
@customElement('clinic-booking-status')
export class ClinicBookingStatus extends LitElement {
  static override styles = [sharedStyles, statusLookupStyles];

  @property({ attribute: false }) apiBase = '';
  @property({ attribute: false }) t: Translation = en;
  @property({ attribute: false }) locale = 'en';
  /** A reference to fill in, e.g. the one just booked. */
  @property({ attribute: false }) reference = '';

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
      this.result = await lookUpStatus(this.apiBase, reference);
    } catch (error) {
      const { status, code } = error instanceof BffError ? error : new BffError(0, 'network', 'network');
      this.failure = status === 404 ? this.t.statusNotFound : status === 0 || status >= 500 ? this.t.errNetwork : this.t.errGeneric;
      emit(this, 'clinic-booking:error', { kind: 'status', status, code });
    } finally {
      this.looking = false;
    }
  }

  override render(): TemplateResult {
    const t = this.t;
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
          ? html`<dl>
              <dt>${t.statusLabel}</dt><dd data-status>${t.statusValue(this.result.status)}</dd>
              <dt>${t.nameLabel}</dt><dd>${this.result.name}</dd>
              <dt>${t.dateLabel}</dt><dd>${formatDate(this.result.date, this.locale)}</dd>
              <dt>${t.timeLabel}</dt><dd>${this.result.time}</dd>
            </dl>`
          : nothing}
      </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'clinic-booking-status': ClinicBookingStatus;
  }
}
