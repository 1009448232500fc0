import { createHash } from 'node:crypto';
import { normalisePhone } from '../contract/rules/patterns.js';

/**
 * Who an audit line of the server's or the BFF's `patients` commands is
 * about, without the phone: the first 16 hex digits of the SHA-256 of the
 * normalised phone (normalisePhone). The same patient gets the same value in
 * both services' lines (one can follow a request through the log), but the
 * line names nobody; a phone number's few digits could be guessed back, so
 * the audit log is still kept as the clinic keeps patient records
 * (docs/privacy.md).
 */
export function patientHash(phone: string): string {
  return createHash('sha256').update(normalisePhone(phone)).digest('hex').slice(0, 16);
}
