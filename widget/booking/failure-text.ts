import type { RefusalReason } from '../../contract/rules/bff-api.js';
import { busySeconds, type BffError } from '../bff-error.js';
import { baseOf } from '../i18n/localize.js';
import type { Translation } from '../i18n/translation.js';

/** Each refusal reason in the widget's language (i18n/refusals.ts), as refusalWords finds them. */
export type RefusalWords = Record<RefusalReason, string>;

/**
 * A failed booking (or change request) in the patient's words, chosen by the BFF's status, code
 * and reason: its message is English for integrators, and never read here. A refusal (400
 * validation_error) is put in `refusals`' words for its reason (refusalWords), and in the
 * generic sentence without a reason, with one this widget does not know yet, or without the words.
 */
export function failureText(failure: BffError, t: Translation, refusals?: RefusalWords): string {
  const { status, code, reason } = failure;
  const busy = busySeconds(failure);
  // The table's own keys only, so that a reason such as 'toString' never reaches Object.prototype.
  return code === 'validation_error' ? (reason && refusals && Object.hasOwn(refusals, reason) ? refusals[reason as RefusalReason] : t.errRefused)
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
 * The refusal sentences in the language ('de-AT' takes 'de'; English for one the widget does not
 * speak), fetched with the first refusal: a file of their own (i18n/refusals.ts), since few
 * patients ever meet one. Undefined when it cannot be fetched: the generic sentence then says it.
 */
export function refusalWords(lang: string): Promise<RefusalWords | undefined> {
  return import('../i18n/refusals.js').then(
    ({ REFUSALS }) => REFUSALS[baseOf(lang)] ?? REFUSALS.en,
    () => undefined,
  );
}

/** Too many attempts: the wait Retry-After names, in whole minutes (at least one), when it names one. */
function rateLimited(retryAfter: number | undefined, t: Translation): string {
  return retryAfter ? t.errRateLimitedIn(Math.max(1, Math.ceil(retryAfter / 60))) : t.errRateLimited;
}
