/**
 * A failed try in a few words, for the outbox's `last_error`, its logs and
 * metrics: a code, never a receiver's sentence (which may quote the message
 * back) and never anything of the patient's.
 */

/** Node's codes of a TLS handshake that failed: a certificate not trusted, expired or of another name; no common protocol. */
export const TLS_FAILURE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|^ERR_SSL_|^ERR_TLS_/;

/** A failed connection: `timeout`, `tls CERT_HAS_EXPIRED`, or Node's code (`network ECONNREFUSED`). */
export function networkErrorCode(error: unknown): string {
  const { name, code } = (error ?? {}) as NodeJS.ErrnoException;
  if (name === 'AbortError' || name === 'TimeoutError' || code === 'ABORT_ERR') return 'timeout';
  if (typeof code === 'string' && TLS_FAILURE.test(code)) return `tls ${code}`;
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? `network ${code}` : 'network error';
}
