import { html, type TemplateResult } from 'lit';
import type { ClinicContent } from '../api.js';
import type { WidgetContext } from '../widget-context.js';
import './status-lookup.js';

/**
 * The status section: a booking's status by its reference, filled in with the one just booked here;
 * a booking's manage view in its place, the lookup kept (hidden), when the booking form is not shown.
 */
export function renderStatusSection(content: ClinicContent, context: WidgetContext, heading: string, reference: string, manage: TemplateResult | '' | undefined): TemplateResult {
  return html`<section part="status" aria-labelledby="status-heading">
    <h2 id="status-heading">${heading}</h2>
    ${manage}<div ?hidden=${!!manage}><clinic-booking-status exportparts="status-form, status-result" .context=${context}
      .reference=${reference} .site=${content.site}
      .treatments=${content.treatments ?? []} .dentists=${content.dentists ?? []}></clinic-booking-status></div>
  </section>`;
}
