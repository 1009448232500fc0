import { html, type TemplateResult } from 'lit';
import { MANAGE_FRAGMENT } from '../../contract/rules/bff-api.js';
import type { ClinicContent } from '../api.js';
import type { WidgetContext } from '../widget-context.js';

/*
 * The ways into a booking's manage view, in the main module: the view itself (manage-view.ts) is a
 * chunk of its own, fetched only when a patient opens it, so that every other visitor's first render
 * stays within the widget's 25 KiB.
 */

/**
 * Shows the manage view of a booking (a reference), or closes it (''): `from` is an element of a
 * <clinic-booking>'s shadow tree (the form, the status lookup, the view itself), whose internal
 * `manage` state it sets (a reactive property: the widget renders again).
 */
export function openManage(from: Element, reference: string): void {
  ((from.getRootNode() as ShadowRoot).host as Element & { manage?: string }).manage = reference;
}

/**
 * The reference of the manage link this page was opened with (#clinic-booking-manage=…), or
 * undefined. The view takes the fragment off the address bar once it shows (manage-view.ts).
 */
export const manageFragment = (): string | undefined => location.hash.split(`#${MANAGE_FRAGMENT}=`)[1];

/** Fetches the manage view's chunk (once: the browser keeps the module); rejects when it cannot be fetched. */
export const loadManageView = (): Promise<unknown> => import('./manage-view.js');

/**
 * Where the manage view shows: <clinic-booking-manage>, until its chunk has come a custom element
 * with only its light DOM, which says it is loading, or that it could not be loaded.
 */
export const renderManage = (content: ClinicContent, context: WidgetContext, reference: string): TemplateResult =>
  html`<clinic-booking-manage part="manage" .content=${content} .context=${context} .reference=${reference}>${context.t.loading}</clinic-booking-manage>`;
