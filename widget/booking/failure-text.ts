import type { RefusalReason } from '../../contract/rules/bff-api.js';
import { busySeconds, type BffError } from '../bff-error.js';
import type { FailureWords } from '../i18n/failures.js';
import { baseOf } from '../i18n/localize.js';
import type { Translation } from '../i18n/translation.js';

/**
 * A failed booking (or change request) in the patient's words, chosen by the BFF's status, code
 * and reason: its message is English for integrators, and never read here. The clinic unreachable
 * or busy is said in `t`'s words; what the BFF answered otherwise (a refusal, a time just taken, too
 * many attempts, an unknown outcome) in `words`' (failureWords), or generically without them.
 */
export function failureText(failure: BffError, t: Translation, words?: FailureWords): string {
  const { status, code, reason } = failure;
  const busy = busySeconds(failure);
  return busy !== undefined ? t.errBusy(busy)
    : status === 0 || (status >= 500 && status !== 504) ? t.errNetwork
    : !words ? t.errGeneric
    // The table's own keys only, so that a reason such as 'toString' never reaches Object.prototype.
    : code === 'validation_error' ? (reason && Object.hasOwn(words.refusal, reason) ? words.refusal[reason as RefusalReason] : words.errRefused)
    : code === 'slot_unavailable' ? words.errSlotTaken
    // 429 is the spec's rate-limit status whoever sends it (a proxy in front of the BFF has no error_code).
    : code === 'rate_limited' || status === 429 ? rateLimited(failure.retryAfter, words)
    // book() has already re-sent it twice with the same key; the key is kept for "Book appointment" again.
    : status === 504 ? words.errOutcomeUnknown
    : t.errGeneric;
}

/**
 * The sentences of failureText's rarer answers in the language ('de-AT' takes 'de'; English for one
 * the widget does not speak), fetched with the first such answer: a file of their own
 * (i18n/failures.ts). Undefined when it cannot be fetched: a generic sentence then says it.
 */
export function failureWords(lang: string): Promise<FailureWords | undefined> {
  // catch after then: a file that came without FAILURES (another release's) counts as none either.
  return import('../i18n/failures.js')
    .then(({ FAILURES }) => FAILURES[baseOf(lang)] ?? FAILURES.en)
    .catch(() => undefined);
}

/** Too many attempts: the wait Retry-After names, in whole minutes (at least one), when it names one. */
function rateLimited(retryAfter: number | undefined, words: FailureWords): string {
  return retryAfter ? words.errRateLimitedIn(Math.max(1, Math.ceil(retryAfter / 60))) : words.errRateLimited;
}
