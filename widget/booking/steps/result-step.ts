import { html, type TemplateResult } from 'lit';
import { formatDate, formatTime } from '../../format.js';
import { renderAppointment } from '../appointment-view.js';
import type { Booked, BookingFlow } from '../booking-flow.js';

/** The confirmation: the appointment, its reference to copy, a calendar file, and "Book another appointment". */
export function renderResultStep(flow: BookingFlow, booked: Booked): TemplateResult {
  const { t, lang } = flow;
  const { site, dentists } = flow.host;
  const dentist = dentists.find((d) => d.doctor_id === booked.doctor_id);
  return html`<div class="result" part="booking-result" role="status">
    <h3 id="result-heading" tabindex="-1">${t.bookedTitle}</h3>
    <p>${t.bookedSummary(formatDate(booked.date, lang), formatTime(booked.time, lang))}</p>
    ${renderAppointment([[t.treatment, booked.treatment?.treatment_name], [t.dentist, dentist?.doctor_name]], site, t)}
    <p>${t.referenceLabel}: <strong class="reference" data-reference>${booked.reference}</strong>
      <button class="button secondary" type="button" @click=${() => copyReference(flow, booked.reference)}>${t.copy}</button>
      <span data-copied>${flow.copied ? t.copied : ''}</span></p>
    <p class="muted">${t.keepReference}</p>
    <p class="row">
      <a class="button secondary" href=${booked.ics} download="appointment.ics">${t.addToCalendar}</a>
      <button class="button secondary" type="button" @click=${() => flow.bookAnother()}>${t.bookAnother}</button>
    </p>
  </div>`;
}

async function copyReference(flow: BookingFlow, reference: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(reference);
  } catch {
    // No clipboard API or no permission: select the reference and copy the selection.
    const range = document.createRange();
    range.selectNodeContents(flow.host.renderRoot.querySelector('[data-reference]')!);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
    document.execCommand('copy');
  }
  flow.markCopied();
}
