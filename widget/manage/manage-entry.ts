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
 * Asks <clinic-booking> to show the manage view of a booking (a reference), or to close it (''):
 * a `manage` event from an element of its shadow tree (the form, the status lookup, the view itself),
 * bubbling to its shadow root and no further (not composed: it is no event of the page's).
 */
export function openManage(from: Element, reference: string): void {
  from.dispatchEvent(new CustomEvent('manage', { detail: reference, bubbles: true }));
}

/**
 * The link a patient keeps to come back to a booking: the clinic's booking page (the BFF's
 * booking_page_url), else this page, with the reference in the fragment, which no browser sends to
 * a server, so no log, proxy or Referer header ever carries it.
 */
export const manageLink = (reference: string, page?: string | null): string => `${(page || location.href).split('#')[0]}#${MANAGE_FRAGMENT}=${reference}`;

/**
 * The reference of the manage link this page was opened with, or undefined; taken off the address
 * bar (the URL without its fragment, the history entry kept), so that it does not linger there.
 */
export function takeManageFragment(): string | undefined {
  const [, reference] = location.hash.split(`#${MANAGE_FRAGMENT}=`);
  if (reference) history.replaceState(history.state, '', location.href.split('#')[0]);
  return reference;
}

/** Fetches the manage view's chunk (once: the browser keeps the module); rejects when it cannot be fetched. */
export const loadManageView = (): Promise<unknown> => import('./manage-view.js');

/**
 * Where the manage view shows: <clinic-booking-manage>, until its chunk has come a custom element
 * with only its light DOM, which says it is loading, or that it could not be loaded.
 */
export const renderManage = (content: ClinicContent, context: WidgetContext, reference: string, failed: boolean): TemplateResult =>
  html`<clinic-booking-manage .content=${content} .context=${context} .reference=${reference}>${failed ? context.t.errGeneric : context.t.loading}</clinic-booking-manage>`;
