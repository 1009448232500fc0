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

/** POST: a booking from the browser. */
export const BOOKING_PATH = '/appointments/book';

/** GET …/{reference}: the status of a booking by its opaque reference. */
export const STATUS_PATH = '/appointments/status';

/** Largest booking body a browser may send, in bytes. */
export const BROWSER_BOOKING_MAX_BYTES = 8 * 1024;
