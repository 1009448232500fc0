import type { BookedDetail, ErrorDetail, ReadyDetail } from './events.js';

/** The widget's events that `analytics="datalayer"` pushes to `window.dataLayer`. */
export const ANALYTICS_EVENTS = ['clinic-booking:ready', 'clinic-booking:booked', 'clinic-booking:error'] as const;

type AnyDetail = ReadyDetail & BookedDetail & ErrorDetail;

/**
 * `analytics="datalayer"`: pushes a widget event to `window.dataLayer` as
 * `{event: 'clinic_booking_booked', ...}` (Google Tag Manager's custom events),
 * creating the array when the page has none (GTM reads pushes made before it
 * loads). Ready and error go with their whole details (sections; kind, HTTP
 * status and the BFF's error code), which are about no one. A booking says only
 * that one happened: its date, time, treatment and dentist tell a tracker about
 * a visitor's care, which for a US clinic can be health information under HIPAA
 * (docs/embedding.md, Analytics), so they go only with `analytics-details`. The
 * reference never goes: it retrieves a patient's name. The widget never loads a
 * tag or sets a cookie: what is done with a push, and with the visitor's
 * consent, is the page's tag manager's to decide.
 */
export function pushToDataLayer(event: Event, details: boolean): void {
  const detail = (event as CustomEvent<AnyDetail>).detail;
  const { date, time, treatment_id, doctor_id } = detail;
  ((window as unknown as { dataLayer?: unknown[] }).dataLayer ??= []).push({
    event: event.type.replace(/\W/g, '_'),
    // A booking's fields are named, not copied, so that one added to its detail later stays out of analytics.
    ...(event.type === 'clinic-booking:booked' ? details && { date, time, treatment_id, doctor_id } : detail),
  });
}
