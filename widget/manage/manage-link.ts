import { MANAGE_FRAGMENT } from '../../contract/rules/bff-api.js';

/**
 * The link a patient keeps to come back to a booking: the clinic's booking page (the BFF's
 * booking_page_url), else this page, with the reference in the fragment, which no browser sends to
 * a server, so no log, proxy or Referer header ever carries it. In a file of its own, without Lit:
 * the manage view and the calendar file (booking/calendar-file.ts), each built on its own, put it
 * in theirs.
 */
export const manageLink = (reference: string, page?: string | null): string => `${(page || location.href).split('#')[0]}#${MANAGE_FRAGMENT}=${reference}`;
