import { html, nothing, type TemplateResult } from 'lit';
import { dayNameOf } from '../../contract/rules/opening-hours.js';
import type { ClinicContent } from '../api.js';
import { bookFor, followInPageLinks, renderBooking, type BookingHost, type BookingPresets } from '../booking/booking-section.js';
import type { Section } from '../events.js';
import { localToday } from '../format.js';
import type { InstanceStyles } from '../instance-styles.js';
import { LAST_STAGE, reaches, type Stage } from '../render-stages.js';
import { renderStatusSection } from '../status/status-section.js';
import { themeStyle } from '../theme.js';
import type { WidgetContext } from '../widget-context.js';
import { heroImageRule, renderFooter, renderSite } from './site-section.js';
import { renderDentists, renderTreatments } from './treatments-section.js';

/**
 * The clinic's content, section by section in the page's order, as far as the staged render has come.
 * All it is shown with is <clinic-booking>'s.
 * @param shown the sections shown (shown-sections.ts)
 * @param stage how far the render has come (render-stages.ts)
 * @param instance this widget's place among the page's widgets (section-names.ts)
 * @param held the height the page reserved (reserved-height.ts), held until every stage has rendered; 0: none
 * @param styles the element's own stylesheet, for the clinic's theme and hero picture
 * @param host the element, for the booking form (booking-section.ts)
 * @param presets the page's presets for the booking form
 * @param lastReference the reference of the last booking made here, for the status lookup
 * @param onBooked takes the reference of each booking made here
 * @param manage a booking's manage view (manage/manage-entry.ts), shown in place of the booking form,
 *   or of the status lookup when the form is not shown; none when empty
 */
export function renderContent(
  content: ClinicContent,
  context: WidgetContext,
  shown: Section[],
  stage: Stage | undefined,
  instance: number,
  held: number,
  styles: InstanceStyles,
  host: BookingHost,
  presets: BookingPresets,
  lastReference: string,
  onBooked: (reference: string) => void,
  manage: TemplateResult | '' | undefined,
): TemplateResult {
  const { t } = context;
  // `||`, not `??`: an empty label (the contract allows one) falls back too, never an empty heading.
  const labels = content.site?.section_labels ?? {};
  const currency = content.organization?.currency;
  const bookable = shown.includes('booking');
  const today = dayNameOf(localToday());
  const cardContext = (field: 'treatment_id' | 'doctor_id') => ({
    ...context,
    currency,
    ...(bookable ? { onBook: (id: number) => bookFor(host, field, id) } : {}),
  });
  // Until every stage has rendered, the root holds the space the page reserved.
  const hold = stage !== LAST_STAGE && held ? `min-height:${held}px;` : '';
  styles.set(`.root{${themeStyle(content.site)}${hold}}${content.site ? heroImageRule(content.site, context.apiBase) : ''}`);
  return html`<div class="root" dir=${context.dir} @click=${(event: MouseEvent) => followInPageLinks(host, event)}
    @clinic-booking:booked=${(event: CustomEvent<{ reference: string }>) => onBooked(event.detail.reference)}>
    ${instance > 1 ? html`<span id="cb-instance" hidden>(${instance})</span>` : nothing}
    ${shown.includes('site') && content.site
      ? renderSite(content.site, content.organization, context, today, shown.includes('dentists') ? content.dentists : undefined, stage)
      : nothing}
    ${reaches(stage, 'treatments') && shown.includes('treatments') && content.treatments
      ? renderTreatments(content.treatments, labels.treatments || t.treatmentsHeading, cardContext('treatment_id'))
      : nothing}
    ${reaches(stage, 'dentists') && shown.includes('dentists') && content.dentists
      ? renderDentists(content.dentists, labels.dentists || t.dentistsHeading, cardContext('doctor_id'))
      : nothing}
    ${reaches(stage, 'booking') && bookable ? renderBooking(content, context, host, presets, instance, manage) : nothing}
    ${reaches(stage, 'status') && shown.includes('status')
      ? renderStatusSection(content, context, labels.status || t.statusHeading, lastReference, bookable ? '' : manage)
      : nothing}
    ${reaches(stage, 'site-end') && shown.includes('site') && content.site ? renderFooter(content.site) : nothing}
  </div>`;
}
