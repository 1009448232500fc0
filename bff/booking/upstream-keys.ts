import { createHash } from 'node:crypto';
import { LIMITS } from '../../contract/rules/limits.js';

/**
 * Each dentist tried for one "any dentist" booking gets its own
 * Idempotency-Key derived from the patient's, so a re-send replays each try
 * (a 409 or the booking) instead of booking again. A key too long to carry
 * the suffix within the header's limit is replaced by its SHA-256.
 */
export function dentistKey(patientKey: string, doctorId: number): string {
  const suffix = `:doctor-${doctorId}`;
  const base = patientKey.length + suffix.length <= LIMITS.idempotencyKey ? patientKey : createHash('sha256').update(patientKey).digest('base64url');
  return `${base}${suffix}`;
}
