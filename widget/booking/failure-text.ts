import { busySeconds, type BffError } from '../bff-error.js';
import type { BookingRefusal, Translation } from '../i18n/translation.js';

/**
 * A failed booking in the patient's words, chosen by the BFF's status, code
 * and reason: its message is English for integrators, and never read here.
 */
export function failureText(failure: BffError, t: Translation): string {
  const { status, code } = failure;
  const busy = busySeconds(failure);
  return code === 'validation_error' ? refusal(failure.reason, t)
    : code === 'slot_unavailable' ? t.errSlotTaken
    // 429 is the spec's rate-limit status whoever sends it (a proxy in front of the BFF has no error_code).
    : code === 'rate_limited' || status === 429 ? rateLimited(failure.retryAfter, t)
    : busy !== undefined ? t.errBusy(busy)
    // book() has already re-sent it twice with the same key; the key is kept for "Book appointment" again.
    : status === 504 ? t.errOutcomeUnknown
    : status === 0 || status >= 500 ? t.errNetwork
    : t.errGeneric;
}

/**
 * A refused booking (400 validation_error) by its reason code, each of the
 * contract's REFUSAL_REASONS a booking meets in the translation table's words; without a
 * reason, or with one this widget does not know yet, the generic sentence.
 * The table's own keys only, so that a reason such as 'toString' never
 * reaches Object.prototype.
 */
function refusal(reason: string | undefined, t: Translation): string {
  return reason && Object.hasOwn(t.refusal, reason) ? t.refusal[reason as BookingRefusal] : t.errRefused;
}

/** Too many attempts: the wait Retry-After names, in whole minutes (at least one), when it names one. */
function rateLimited(retryAfter: number | undefined, t: Translation): string {
  return retryAfter ? t.errRateLimitedIn(Math.max(1, Math.ceil(retryAfter / 60))) : t.errRateLimited;
}
