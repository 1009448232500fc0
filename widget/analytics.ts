import type { BookedDetail, ErrorDetail, ReadyDetail } from './events.js';

/** The widget's events and the names they take in `window.dataLayer` (Google Tag Manager's custom events). */
const DATA_LAYER_NAMES = {
  'clinic-booking:ready': 'clinic_booking_ready',
  'clinic-booking:booked': 'clinic_booking_booked',
  'clinic-booking:error': 'clinic_booking_error',
} as const;

export const ANALYTICS_EVENTS = Object.keys(DATA_LAYER_NAMES) as (keyof typeof DATA_LAYER_NAMES)[];

type AnyDetail = ReadyDetail | BookedDetail | ErrorDetail;

/**
 * `analytics="datalayer"`: pushes a widget event to `window.dataLayer` as
 * `{event: 'clinic_booking_booked', ...detail}`, creating the array when the
 * page has none (GTM reads pushes made before it loads). The details are the
 * DOM events' own, which never hold a patient's name or phone, less the
 * booking reference: it retrieves a patient's name, so it is personal data and
 * stays out of analytics. The widget never loads a tag or sets a cookie: what
 * is done with a push, and with the visitor's consent, is the page's tag
 * manager's to decide.
 */
export function pushToDataLayer(event: Event): void {
  const name = DATA_LAYER_NAMES[event.type as keyof typeof DATA_LAYER_NAMES];
  if (!name) return;
  const { reference: _personal, ...detail } = (event as CustomEvent<AnyDetail & { reference?: string }>).detail;
  const page = window as unknown as { dataLayer?: unknown[] };
  (page.dataLayer ??= []).push({ event: name, ...detail });
}
