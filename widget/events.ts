/** The widget's public events: bubbling, composed, named `clinic-booking:*`. */

/** The sections the widget can show. */
export type Section = 'site' | 'treatments' | 'dentists' | 'booking' | 'status';

/** Pushed whole to the dataLayer with `analytics="datalayer"` (analytics.ts): it names no one and no care. */
export interface ReadyDetail {
  /** The sections that rendered. */
  sections: Section[];
}

/**
 * Never the patient's name or phone: analytics on the host page may record
 * it. Nor the clinic system's own appointment id: the reference stands for it.
 * The page's own scripts get all of it; the dataLayer none of it, unless
 * `analytics-details` (date, time, treatment_id, doctor_id; never the reference).
 */
export interface BookedDetail {
  reference: string;
  date: string;
  time: string;
  treatment_id: number | null;
  doctor_id: number | null;
}

/** Pushed whole to the dataLayer with `analytics="datalayer"` (analytics.ts): it names no one and no care. */
export interface ErrorDetail {
  /** What failed: loading content, a booking, a status lookup (the manage view's too), or a change request (cancel or move). */
  kind: 'load' | 'booking' | 'status' | 'change';
  /** HTTP status, or 0 when the BFF could not be reached. */
  status: number;
  /** The spec's error_code, or 'network'. */
  code: string;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'clinic-booking:ready': CustomEvent<ReadyDetail>;
    'clinic-booking:booked': CustomEvent<BookedDetail>;
    'clinic-booking:error': CustomEvent<ErrorDetail>;
  }
}

type EventDetails = {
  'clinic-booking:ready': ReadyDetail;
  'clinic-booking:booked': BookedDetail;
  'clinic-booking:error': ErrorDetail;
};

/** Dispatches a widget event; returns false when a listener called preventDefault(). */
export function emit<N extends keyof EventDetails>(
  target: EventTarget,
  name: N,
  detail: EventDetails[N],
  cancelable = false,
): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
}
