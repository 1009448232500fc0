/**
 * Helpers for the manage view of a booking: the BFF's status answers with their `changes`, the
 * change-request answers, opening the view by a manage link, and reaching into it.
 */
import { html, waitUntil } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import type { ChangeView } from '../../../contract/bff-change-view.js';
import type { ClinicBooking } from '../../../widget/clinic-booking.js';
import type { ClinicBookingManage } from '../../../widget/manage/manage-view.js';
import type { FakeAnswer, FakeBff } from './fake-bff.js';
import { nextDate, fixtureReady } from './widget.js';

export const STATUS = 'POST /appointments/status';
export const CHANGE = 'POST /appointments/change-requests';

/** A reference as the BFF issues them, grouped. */
export const REF = 'K7QF-2M9X-PA4T-Z3RW-8HNC';

/** The booking the status answers name: Check-up with Dr Raj Patel, a Tuesday at least a week ahead, 10:15. */
export const BOOKED_DATE = nextDate('Tuesday', 7);

/** What may still be asked: by default both actions open, nothing asked yet. */
export function changes(overrides: Partial<ChangeView> = {}): ChangeView {
  return {
    cancel_requested_at: null,
    move_requested_at: null,
    move_preferred_starts: [],
    can_request_cancel: true,
    can_request_move: true,
    closed_reason: null,
    min_notice_hours: 24,
    move_offered: true,
    text: null,
    booking_page_url: null,
    ...overrides,
  };
}

/** The BFF's status answer for REF: Scheduled (or `status`), with `changes` (null: a BFF without change requests). */
export function statusAnswer(change: ChangeView | null = changes(), status = 'Scheduled'): FakeAnswer {
  return {
    status: 200,
    body: {
      success: true,
      message: 'ok',
      data: { status, name: 'Jane Patient', date: BOOKED_DATE, time: '10:15', treatment_id: 1, doctor_id: 2, ...(change ? { changes: change } : {}) },
    },
  };
}

/**
 * A BFF that keeps what it was asked: its status answers say which requests were taken (and when),
 * as the real one's do; each change request is taken at `at`, the first of each kind kept.
 */
export function keepsRequests(bff: FakeBff, start: ChangeView = changes(), at = '2026-11-20T09:30:00Z'): { state: ChangeView } {
  const kept = { state: { ...start } };
  bff.on(STATUS, () => statusAnswer(kept.state));
  bff.on(CHANGE, (call) => {
    const body = call.body as { kind: 'cancel' | 'move'; preferred_starts?: { date: string; time: string }[] };
    const field = body.kind === 'cancel' ? 'cancel_requested_at' : 'move_requested_at';
    const before = kept.state[field];
    if (!before) {
      kept.state =
        body.kind === 'cancel'
          ? { ...kept.state, cancel_requested_at: at, can_request_cancel: false, can_request_move: false }
          : { ...kept.state, move_requested_at: at, move_preferred_starts: body.preferred_starts ?? [], can_request_move: false };
    }
    return taken(body.kind, before ?? at, !!before);
  });
  return kept;
}

/** The change-request answer: taken at `at`, or taken before (`already`). */
export function taken(kind: 'cancel' | 'move', at = '2026-11-20T09:30:00Z', already = false): FakeAnswer {
  return { status: 200, body: { success: true, message: 'Change request taken', data: { kind, requested_at: at, already_requested: already } } };
}

/** The <clinic-booking-manage> shown, once its chunk has come and it has rendered. */
export async function manageOf(el: ClinicBooking): Promise<ClinicBookingManage> {
  // The chunk is a module the test server builds on its first request: on a busy machine, with three engines at
  // once, that took more than waitUntil's 1 s. The bound only ends a test that fails.
  await waitUntil(() => el.shadowRoot!.querySelector('clinic-booking-manage')?.shadowRoot, 'no manage view rendered', { timeout: 5_000 });
  const view = el.shadowRoot!.querySelector('clinic-booking-manage')!;
  await view.updateComplete;
  return view;
}

/** Waits until the view has its booking (the card) or its failure, and its strings. */
export async function loaded(view: ClinicBookingManage): Promise<void> {
  await waitUntil(() => view.shadowRoot!.querySelector('dl, .failure'), 'the manage view never loaded');
  await view.updateComplete;
}

/**
 * Opens a page with a manage link (#clinic-booking-manage=reference) and renders the widget, which
 * opens in the manage view. Restore the address with `leaveManageLink` after.
 */
export async function openByLink(
  bff: FakeBff,
  reference = REF,
  template: (apiBase: string) => TemplateResult = (apiBase) => html`<clinic-booking api-base=${apiBase} sections="booking"></clinic-booking>`,
): Promise<{ el: ClinicBooking; view: ClinicBookingManage }> {
  history.replaceState(history.state, '', `${location.pathname}${location.search}#clinic-booking-manage=${reference}`);
  const el = await fixtureReady(template(bff.apiBase));
  const view = await manageOf(el);
  await loaded(view);
  return { el, view };
}

/** Takes any fragment off the test page's address. */
export function leaveManageLink(): void {
  if (location.hash) history.replaceState(history.state, '', `${location.pathname}${location.search}`);
}

export const inView = (view: ClinicBookingManage, selector: string): HTMLElement | null => view.shadowRoot!.querySelector<HTMLElement>(selector);

/** A button of the view by its text. */
export function viewButton(view: ClinicBookingManage, text: string): HTMLButtonElement {
  const found = [...view.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.replace(/\s+/g, ' ').trim() === text);
  if (!found) throw new Error(`no button "${text}" in the manage view: ${view.shadowRoot!.textContent?.replace(/\s+/g, ' ')}`);
  return found;
}

/** Clicks a button of the view by its text and waits for the view. */
export async function press(view: ClinicBookingManage, text: string): Promise<void> {
  viewButton(view, text).click();
  await view.updateComplete;
}

export const viewText = (view: ClinicBookingManage): string => view.shadowRoot!.textContent?.replace(/\s+/g, ' ').trim() ?? '';
