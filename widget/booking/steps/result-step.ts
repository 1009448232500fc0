import { html, nothing, type TemplateResult } from 'lit';
import { formatDate, formatTime } from '../../format.js';
import { referenceText, renderAppointment, statusBadge } from '../appointment-view.js';
import type { Booked, BookingFlow } from '../booking-flow.js';
import { choiceDetails } from '../choices-summary.js';
import { openManage } from '../../manage/manage-entry.js';

/**
 * The confirmation, a card like the status view's: a Scheduled badge, the appointment (treatment with
 * its length and fee, dentist, day, time), its reference to copy, a calendar file, "Manage booking" (its
 * manage view: cancel, ask for another time) and "Book another appointment".
 * The reference goes on a line of its own under its label: beside it, it broke across lines even at 390 px.
 */
export function renderResultStep(flow: BookingFlow, booked: Booked): TemplateResult {
  const { t, lang } = flow;
  const { site, dentists, currency } = flow.host;
  const dentist = dentists.find((d) => d.doctor_id === booked.doctor_id);
  const details = choiceDetails({ treatment: booked.treatment, dentist, date: booked.date, time: booked.time }, { t, lang, currency });
  return html`<div class="result" part="booking-result" role="status">
    <h3 id="result-heading" tabindex="-1">${t.bookedTitle}</h3>
    <p>${statusBadge('Scheduled', t.statusValue('Scheduled'))}</p>
    <p>${t.bookedSummary(formatDate(booked.date, lang), formatTime(booked.time, lang))}</p>
    ${renderAppointment(booked.treatment ? details : details.slice(1), site, t, true, () => openManage(flow.host, booked.reference))}
    <p class="widget-direction">${t.referenceLabel}:<br /><strong>${referenceText(booked.reference)}</strong>
      <button class="button secondary" type="button" @click=${() => copyReference(flow, booked.reference)}>${t.copy}</button>
      <span data-copied>${flow.copied ? t.copied : ''}</span></p>
    <p class="muted">${t.keepReference}</p>
    ${booked.email ? html`<p>${t.confirmationTo(booked.email)}</p>` : nothing}
    <p class="row">
      ${booked.ics ? html`<a class="button secondary" href=${booked.ics} download="appointment.ics">${t.addToCalendar}</a>` : nothing}
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
