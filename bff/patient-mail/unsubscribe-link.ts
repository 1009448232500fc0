import { UNSUBSCRIBE_PATH } from '../../contract/rules/bff-api.js';

/**
 * The one-click unsubscribe of a patient's e-mails (RFC 8058, decision 19):
 * every mail names the page in its List-Unsubscribe header and in a visible
 * link. The token is random and says nothing: not the reference, not the
 * booking (a reference in a URL would reach logs and Referer headers).
 */

/**
 * What the page takes for a token before it asks the database: URL-safe
 * characters of a sensible length (the booking path's unsubscribeToken, 43
 * base64url characters, or any other random string of the same alphabet).
 * Anything else is answered as an unknown token, without a query.
 */
export const UNSUBSCRIBE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** The page of `token` at the BFF's PUBLIC_ORIGIN (with or without a trailing slash). */
export const unsubscribeUrl = (publicOrigin: string, token: string): string =>
  `${publicOrigin.replace(/\/+$/, '')}${UNSUBSCRIBE_PATH}/${encodeURIComponent(token)}`;

/** The two headers of RFC 8058: a mail client's "Unsubscribe" button POSTs `List-Unsubscribe=One-Click` to `url`. */
export const unsubscribeHeaders = (url: string): { 'List-Unsubscribe': string; 'List-Unsubscribe-Post': string } => ({
  'List-Unsubscribe': `<${url}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});
