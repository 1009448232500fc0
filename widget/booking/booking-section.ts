import { html, type PropertyValues, type TemplateResult } from 'lit';
import { parsePositiveId } from '../../contract/rules/patterns.js';
import type { ClinicContent } from '../api.js';
import { pageLink } from '../page-link.js';
import type { WidgetContext } from '../widget-context.js';
import type { ClinicBookingForm } from './booking-form.js';
import './booking-form.js';

/** What the booking section reads of <clinic-booking>: its attributes, and the root it renders into. */
export interface BookingHost {
  readonly mode: 'inline' | 'button';
  readonly treatment: string;
  readonly doctor: string;
  readonly patientName: string;
  readonly patientPhone: string;
  readonly successUrl: string;
  readonly privacyUrl: string;
  readonly renderRoot: ParentNode;
}

/** The page's presets for the form, checked: the choices by id, the links only when http(s) or relative (page-link.ts). */
export interface BookingPresets {
  treatment?: number;
  doctor?: number;
  successLink?: string;
  privacyLink?: string;
}

/** Checks a preset again when its attribute changed (from willUpdate, so each is checked, and warned of, once). */
export function checkPresets(presets: BookingPresets, host: BookingHost, changed: PropertyValues): void {
  if (changed.has('treatment')) presets.treatment = parsePositiveId(host.treatment);
  if (changed.has('doctor')) presets.doctor = parsePositiveId(host.doctor);
  if (changed.has('successUrl')) presets.successLink = pageLink(host.successUrl, 'success-url');
  if (changed.has('privacyUrl')) presets.privacyLink = pageLink(host.privacyUrl, 'privacy-url');
}

const formIn = (root: ParentNode): ClinicBookingForm | null => root.querySelector('clinic-booking-form');
const dialogIn = (root: ParentNode): HTMLDialogElement | null => root.querySelector('dialog');

/**
 * The booking form, under the clinic's appointment title: in place (`mode="inline"`), or behind a
 * floating button in a dialog (`mode="button"`). A booking's manage view, when one is open, shows in
 * its place, the form kept (hidden) as it was, so that closing the view returns to it.
 */
export function renderBooking(content: ClinicContent, context: WidgetContext, host: BookingHost, presets: BookingPresets, instance: number, manage: TemplateResult | '' | undefined): TemplateResult {
  const { t } = context;
  const title = content.site?.appointment_title || t.bookingHeading;
  const form = html`${manage}<div ?hidden=${!!manage}><clinic-booking-form exportparts="booking-form, booking-summary, submit, booking-error, booking-result" .context=${context} .site=${content.site}
    .currency=${content.organization?.currency}
    .treatments=${content.treatments ?? []} .dentists=${content.dentists ?? []}
    .preselectTreatment=${presets.treatment} .preselectDoctor=${presets.doctor}
    .prefillName=${host.patientName} .prefillPhone=${host.patientPhone}
    .privacyUrl=${presets.privacyLink} .successUrl=${presets.successLink} .emailOffered=${content.offers?.confirmation_email} .instance=${instance}></clinic-booking-form></div>`;
  if (host.mode === 'button') {
    return html`<button class="button open-button" part="open-button" type="button" aria-haspopup="dialog"
        @click=${() => dialogIn(host.renderRoot)?.showModal()}>${t.openBooking}</button>
      <dialog part="dialog" aria-labelledby="booking-heading">
        <div class="dialog-header">
          <h2 id="booking-heading">${title}</h2>
          <button class="button secondary" type="button" @click=${() => dialogIn(host.renderRoot)?.close()}>${t.close}</button>
        </div>
        ${form}
      </dialog>`;
  }
  return html`<section id="booking" part="booking" aria-labelledby="booking-heading">
    <h2 id="booking-heading">${title}</h2>
    ${form}
  </section>`;
}

/** "Book" on a card: choose it in the form and bring the form into view with focus on its first field. */
export async function bookFor({ mode, renderRoot }: BookingHost, field: 'treatment_id' | 'doctor_id', id: number): Promise<void> {
  // Straight into the form, not through preselectTreatment/preselectDoctor: those act only when
  // they change, so "Book" on the same card again would lose to a choice made in the form since.
  formIn(renderRoot)?.choose(field, id);
  if (mode === 'button') dialogIn(renderRoot)?.showModal();
  else formIn(renderRoot)?.scrollIntoView({ behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth', block: 'start' });
  await formIn(renderRoot)?.updateComplete;
  formIn(renderRoot)?.focusFirstField();
}

/** Fragment links such as the CTA's #booking cannot reach into a shadow root by themselves. */
export function followInPageLinks({ mode, renderRoot }: BookingHost, event: MouseEvent): void {
  const link = (event.composedPath()[0] as Element | undefined)?.closest?.('a[href="#booking"]');
  if (!link) return;
  event.preventDefault();
  if (mode === 'button') dialogIn(renderRoot)?.showModal();
  else renderRoot.querySelector('#booking')?.scrollIntoView({ block: 'start' });
  formIn(renderRoot)?.focusFirstField();
}
