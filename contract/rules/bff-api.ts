/**
 * The facts about the BFF's public API (/api) that the widget needs at run
 * time, kept free of zod so the browser bundle can share them. The schemas
 * of the same API are in contract/bff.ts.
 */

/** The booking form's hidden honeypot field: people never see it, so only bots fill it in. */
export const HONEYPOT_FIELD = 'website';

/** The read-only content resources and their paths under /api (and under the upstream /api/v1). */
export const CONTENT_PATHS = {
  organization: '/organization',
  website: '/website',
  treatments: '/treatments',
  dentists: '/dentists',
} as const;
export type ContentName = keyof typeof CONTENT_PATHS;

/**
 * GET: the four content resources in one answer (one round trip, one ETag):
 * `{success: true, data: {organization, site, treatments, dentists}}`.
 */
export const CONTENT_BUNDLE_PATH = '/content';

/** POST: a booking from the browser. */
export const BOOKING_PATH = '/appointments/book';

/**
 * The status of a booking by its reference. POST with the body `{reference}`
 * (STATUS_LOOKUP_PATH): a reference never travels in a URL, where proxies,
 * CDNs and browser history would record it. GET …/{reference} (STATUS_PATH)
 * is deprecated and still answers for a while.
 */
export const STATUS_PATH = '/appointments/status';
/** POST `{reference}`: the status lookup (the same path as STATUS_PATH, without the reference). */
export const STATUS_LOOKUP_PATH = STATUS_PATH;

/** GET ?date=YYYY-MM-DD[&doctor_id=N][&treatment_id=N]: the day's candidate slots, each open or taken, as best known. */
export const AVAILABILITY_PATH = '/availability';

/**
 * GET ?month=YYYY-MM[&doctor_id=N][&treatment_id=N]: for each day of the
 * month, how many starts are open as best known (0 for a closed, past, too
 * soon, too far or fully taken day), so a calendar never offers a day with
 * nothing free. Worked out like AVAILABILITY_PATH, with no upstream call.
 */
export const AVAILABILITY_DAYS_PATH = '/availability/days';

/**
 * GET: whether the asking page's origin (its Origin header) may read /api's
 * answers: `{success: true, data: {allowed}}` and nothing else. Open to every
 * origin (CORS `*`), so that a widget on a page the BFF refuses can still ask,
 * and tell the page's developer which setting to change.
 */
export const ORIGIN_CHECK_PATH = '/origin-check';

/**
 * POST: a patient's request to cancel or move a booking, by its reference in
 * the body: `{reference, kind: 'cancel'}` or `{reference, kind: 'move',
 * preferred_starts: [{date, time}, …up to 3], message?}`. The spec has no
 * cancel or move: the request reaches the clinic, whose staff act on it.
 */
export const CHANGE_REQUEST_PATH = '/appointments/change-requests';

/** The most wished starts a move request carries. */
export const MAX_PREFERRED_STARTS = 3;

/** The longest message a change request carries, in characters (a booking's note is longer). */
export const CHANGE_MESSAGE_MAX = 500;

/** Largest change request body a browser may send, in bytes. */
export const CHANGE_REQUEST_MAX_BYTES = 4 * 1024;

/**
 * The fragment of a manage link, `#clinic-booking-manage=REFERENCE`: the
 * widget opens the booking's manage view. A fragment never leaves the
 * browser: no server log, proxy or Referer header carries it.
 */
export const MANAGE_FRAGMENT = 'clinic-booking-manage';

/**
 * A patient's one-click unsubscribe page, at the BFF's own origin (not under
 * /api): `${UNSUBSCRIBE_PATH}/{token}`, GET shows it, POST unsubscribes
 * (RFC 8058). The token is random, never the reference, and never logged.
 */
export const UNSUBSCRIBE_PATH = '/mail/unsubscribe';

/** Largest status lookup body a browser may send, in bytes. */
export const STATUS_LOOKUP_MAX_BYTES = 1024;

/**
 * Booking references a patient can read out on the phone: Crockford base32
 * (no I, L, O or U), REFERENCE_SYMBOLS symbols shown in groups of
 * REFERENCE_GROUP separated by dashes, e.g. K7QF-2M9X-PA4T-Z3RW-8HNC.
 */
export const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const REFERENCE_SYMBOLS = 20;
export const REFERENCE_GROUP = 4;
/** A reference as issued: five groups of four Crockford symbols. */
export const REFERENCE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){4}$/;
/**
 * References issued before the short format (and still issued for appointment
 * ids of 2^32 and above): 54 base64url characters, case-sensitive. They keep working.
 */
export const LEGACY_REFERENCE_PATTERN = /^[A-Za-z0-9_-]{54}$/;

/**
 * A reference as a patient typed or read it, in the form to look up: a legacy
 * reference (54 base64url characters) unchanged but trimmed; anything else
 * upper-cased, with spaces and dashes (any kind: - ‐ ‑ – —) removed and
 * Crockford's look-alikes mapped: I and L to 1, O to 0. U is not in the
 * alphabet and stays U (no reference holds it, so it is not found).
 */
export function normaliseReference(text: string): string {
  const trimmed = text.trim();
  if (LEGACY_REFERENCE_PATTERN.test(trimmed)) return trimmed;
  return trimmed
    .toUpperCase()
    .replace(/[\s\-\u2010-\u2015]/gu, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
}

/** Symbols in groups of REFERENCE_GROUP separated by dashes: K7QFM2... → K7QF-M2... (a legacy reference is left as it is). */
export function formatReference(symbols: string): string {
  if (LEGACY_REFERENCE_PATTERN.test(symbols)) return symbols;
  return symbols.match(new RegExp(`.{1,${REFERENCE_GROUP}}`, 'g'))?.join('-') ?? '';
}

/** Largest booking body a browser may send, in bytes. */
export const BROWSER_BOOKING_MAX_BYTES = 8 * 1024;

/**
 * Why the BFF refused a booking (400 validation_error), as a code in its error
 * body's `reason`: the widget puts each in the patient's words and never reads
 * the message, which is English for integrators. The opening-hours codes are
 * checkOpeningHours's own, the past, notice and horizon codes checkBookingWindow's;
 * the rest name a rule of the booking.
 */
export const REFUSAL_REASONS = [
  /** The start has passed, in the clinic's time. */
  'in_past',
  /** The clinic does not open that day. */
  'closed_day',
  /** The start is outside that day's opening hours. */
  'outside_hours',
  /** The treatment would end after closing time. */
  'ends_after_closing',
  /** The start is sooner than the clinic's minimum notice. */
  'inside_notice',
  /** The day is further ahead than the clinic books. */
  'beyond_horizon',
  /** The start is not on the booking grid (every SLOT_STEP_MINUTES). */
  'off_grid',
  /** The treatment is not one of the clinic's active treatments. */
  'unknown_treatment',
  /** The dentist is not one of the clinic's dentists. */
  'unknown_dentist',
  /** A change request: the appointment is closer than the clinic's change window (CHANGE_REQUEST_MIN_NOTICE_HOURS). */
  'inside_change_window',
  /** A move request: the clinic takes only cancellations online. */
  'move_not_offered',
  /** A change request: the booking is already Cancelled. */
  'already_cancelled',
  /** A change request: the booking is Completed. */
  'appointment_completed',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
