import { html, nothing, type TemplateResult } from 'lit';
import type { WebsiteSite } from '../../contract/index.js';
import type { Translation } from '../i18n/translation.js';

/** One line of an appointment's details: a label and its value; an empty value is left out. */
export type Detail = [label: string, value: string | TemplateResult | undefined];

/**
 * An appointment's details as the confirmation and the status view show them,
 * with the clinic's address and, while it is still to come (`changeable`: Scheduled),
 * how to change or cancel: call the clinic, or "Manage booking" (`manage` opens the
 * booking's manage view, where a cancellation or another time can be asked for).
 */
export function renderAppointment(details: Detail[], site: WebsiteSite | undefined, t: Translation, changeable: boolean, manage?: () => void): TemplateResult {
  const phone = site?.contact_phone;
  return html`${detailList([...details, [t.address, site?.contact_address]])}${
    phone && changeable ? html`<p class="widget-direction">${t.changeByPhone} ${telLink(phone)}</p>` : nothing}${
    manage ? html`<p class="widget-direction"><button class="button secondary" type="button" @click=${manage}>${t.manage}</button></p>` : nothing}`;
}

/** A phone number as a tel: link (digits and + only in the href); left to right in an Arabic page too, or its + would end it. */
export const telLink = (phone: string): TemplateResult => html`<a dir="ltr" href="tel:${phone.replace(/[^+\d]/g, '')}">${phone}</a>`;

/**
 * An appointment's status as a badge, coloured by status and worded, so colour is never the only cue:
 * Scheduled, Cancelled, or any other (Completed, or one the contract does not name yet, shown as it came).
 */
export const statusBadge = (status: string, words: string): TemplateResult =>
  html`<span class="badge" data-status=${status}>${words}</span>`;

/**
 * A booking reference that never breaks inside a group: each group (K7QF-, or six characters of a
 * long reference) unbreakable, a line break allowed only between groups, and the whole isolated
 * (bdi) so that a right-to-left page never reorders it. Its text is the reference, unchanged.
 */
export const referenceText = (reference: string): TemplateResult =>
  html`<bdi class="reference" data-reference>${(reference.match(/[^-]{1,6}-?|-/g) ?? []).map((group) => html`<span>${group}</span><wbr />`)}</bdi>`;

/**
 * Label and value pairs as a description list, leaving out the empty ones; `part` names it to the page.
 * Each value is isolated in its own direction (bdi) on the widget's side of the list (the dd's style):
 * in Arabic a Latin name stood across the list from its label, at the far end of a wide value column.
 */
export const detailList = (rows: Detail[], part?: string): TemplateResult =>
  html`<dl part=${part ?? nothing}>${rows.map(([label, value]) => (value ? html`<dt>${label}</dt><dd><bdi>${value}</bdi></dd>` : nothing))}</dl>`;
