/** The wait after a message's first failed try; each later failure doubles it, up to OUTBOX_RETRY_MAX_DELAY_MS. */
export const FIRST_RETRY_DELAY_MS = 5_000;

/**
 * How long to wait before the next try of a message that has failed
 * `attempts` times: 5 s, 10 s, 20 s… capped at `maxDelayMs`, each drawn at
 * random between half that step and all of it. The randomness keeps the
 * messages of one outage (a receiver down, then back) from all coming back in
 * the same instant and knocking it over again; the half kept fixed keeps a
 * retry from following its failure at once. `random` returns [0, 1), as
 * Math.random does; tests pass their own.
 */
export function retryDelayMs(attempts: number, maxDelayMs: number, random: () => number = Math.random): number {
  // 2 ** 60 and beyond is still a number, just past any cap.
  const step = Math.min(maxDelayMs, FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(step / 2 + (step / 2) * random());
}
