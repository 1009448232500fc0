import { createHash } from 'node:crypto';
import { LIMITS } from '../../contract/rules/limits.js';

/**
 * `prefix`, then `patientKey`, then `suffix`: within the header's limit, the
 * patient's key as it came; too long to carry them, its SHA-256 instead.
 */
function framed(prefix: string, patientKey: string, suffix: string): string {
  const fits = prefix.length + patientKey.length + suffix.length <= LIMITS.idempotencyKey;
  return `${prefix}${fits ? patientKey : createHash('sha256').update(patientKey).digest('base64url')}${suffix}`;
}

/**
 * The Idempotency-Key a site's booking goes upstream under. Upstream keeps
 * keys per clinic, and several sites may book with one clinic's app key: a
 * site's keys carry its id (`<site id>:<patient's key>`), so the same key
 * and body on two sites are two bookings, never one site handing out the
 * other's. The default site (`scope` undefined) sends the patient's key as it
 * came, as before sites, so a re-send of a booking made before keeps replaying.
 */
export function siteKey(patientKey: string, scope: string | undefined): string {
  return scope === undefined ? patientKey : framed(`${scope}:`, patientKey, '');
}

/**
 * Each dentist tried for one "any dentist" booking gets its own
 * Idempotency-Key derived from the patient's (the site's: siteKey), so a
 * re-send replays each try (a 409 or the booking) instead of booking again.
 * A key too long to carry the suffix within the header's limit is replaced
 * by its SHA-256.
 */
export function dentistKey(patientKey: string, doctorId: number): string {
  return framed('', patientKey, `:doctor-${doctorId}`);
}
