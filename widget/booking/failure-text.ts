import { busySeconds, type BffError } from '../bff-error.js';
import type { Translation } from '../i18n/translation.js';

/** A failed booking in the patient's words. */
export function failureText(failure: BffError, t: Translation): string {
  const { status, code } = failure;
  const busy = busySeconds(failure);
  return code === 'validation_error' ? refusal(failure.message, t)
    : code === 'slot_unavailable' ? t.errSlotTaken
    // 429 is the spec's rate-limit status whoever sends it (a proxy in front of the BFF has no error_code).
    : code === 'rate_limited' || status === 429 ? t.errRateLimited
    : busy !== undefined ? t.errBusy(busy)
    // book() has already re-sent it twice with the same key; the key is kept for "Book appointment" again.
    : status === 504 ? t.errOutcomeUnknown
    : status === 0 || status >= 500 ? t.errNetwork
    : t.errGeneric;
}

/**
 * A server's refusal of the booking in the patient's words: the BFF's
 * validation message is for integrators, so it is recognised, never shown.
 */
function refusal(message: string, t: Translation): string {
  return /past/i.test(message) ? t.errPast : /closing|opening hours|closed/i.test(message) ? t.errHours : t.errRefused;
}
