import { html, nothing, type TemplateResult } from 'lit';
import { formatTime } from '../../format.js';
import { referenceText, renderAppointment } from '../appointment-view.js';
import type { Booked, BookingFlow } from '../booking-flow.js';
import { choiceDetails } from '../choices-summary.js';
import { openManage } from '../../manage/manage-entry.js';

/**
 * The confirmation, as Calendly's and Cal.com's read: a check mark, the title (focused, which
 * announces it), where the e-mail goes, then the appointment once, in the summary's block (treatment
 * with its length and fee, dentist, day, time in clinic time, the clinic's address), how to change it
 * ("Manage booking": cancel, ask for another time), its reference to copy, a calendar file and
 * "Book another appointment". The mark is a picture only (aria-hidden): the title says it.
 * The reference goes on a line of its own under its label: beside it, it broke across lines even at 390 px.
 */
export function renderResultStep(flow: BookingFlow, booked: Booked): TemplateResult {
  const { t, lang } = flow;
  const { site, dentists, currency } = flow.host;
  const dentist = dentists.find((d) => d.doctor_id === booked.doctor_id);
  // Treatment (when one was chosen), dentist and day as the summary words them; the time with its zone.
  const details = choiceDetails({ treatment: booked.treatment, dentist, date: booked.date, time: '' }, { t, lang, currency }).slice(booked.treatment ? 0 : 1, 3);
  return html`<div class="result" part="booking-result" role="status">
    <h3 id="result-heading" tabindex="-1"><svg class="mark" viewBox="0 0 24 24" aria-hidden="true"><path d="m7 12 3 3 7-7" /></svg>${t.bookedTitle}</h3>
    ${booked.email ? html`<p>${t.confirmationTo(booked.email)}</p>` : nothing}
    ${renderAppointment([...details, [t.time, t.clinicTime(formatTime(booked.time, lang))]], site, t, true, () => openManage(flow.host, booked.reference))}
    <p class="widget-direction">${t.referenceLabel}:<br /><strong>${referenceText(booked.reference)}</strong>
      <button class="button secondary" type="button" @click=${() => copyReference(flow, booked.reference)}>${t.copy}</button>
      <span data-copied>${flow.copied ? t.copied : ''}</span></p>
    <p class="muted">${t.keepReference}</p>
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
    // No clipboard API or no permission: select the reference and copy the selection. (WebKit's addRange
    // refuses a range in a shadow root; selectAllChildren selects it in every engine.)
    getSelection()?.selectAllChildren(flow.host.renderRoot.querySelector('[data-reference]')!);
    document.execCommand('copy');
  }
  flow.markCopied();
}
