import type { Logger } from 'pino';
import { z } from 'zod';
import { AccessTokenResponse } from '../../contract/index.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import { UpstreamBusy, UpstreamUnavailable } from './errors.js';
import { fetchUpstream, toUpstreamUnavailable } from './upstream-fetch.js';
import type { BffObserver } from '../metrics/bff-metrics.js';
import type { RedisLink } from '../../platform/redis-link.js';
import type { ConcurrencyGate } from './concurrency-gate.js';
import { SharedTokenStore } from './shared-token.js';

export interface TokenManagerOptions {
  upstreamUrl: string;
  appKey: string;
  appSecretKey: string;
  timeoutMs: number;
  /** The most of /granttoken's answer that is read (UPSTREAM_MAX_BODY_BYTES). */
  maxBodyBytes: number;
  /** Renew this long before expires_in runs out, so no request carries a dying token. */
  renewBeforeMs?: number;
  clock?: Clock;
  /** Where a redirect from /granttoken is reported (never followed). */
  logger?: Logger;
  /** Told of each exchange and its upstream call (metrics); absent, nothing is counted. */
  observer?: Pick<BffObserver, 'upstreamRequest' | 'tokenExchange'>;
  /**
   * Every /granttoken exchange runs through this gate: one gate shared by all
   * sites' token managers, so a cold start of many sites does not flood upstream.
   */
  exchangeGate?: ConcurrencyGate;
  /**
   * REDIS_URL's link: the token is shared with every BFF instance of this site
   * (same upstream URL and app key), so they do one exchange between them
   * (SharedTokenStore); absent, or while Redis is down, each exchanges alone.
   */
  shared?: RedisLink;
}

const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 30_000;
/** How often an instance waiting for another's exchange looks for its token in Redis. */
const SHARED_POLL_MS = 25;
/** A lock outlives the exchange's own timeout by this much, then frees itself (its holder died). */
const LOCK_MARGIN_MS = 1_000;

/**
 * Holds the one access token of this BFF's app key. One exchange at a time
 * whatever the concurrency (single flight); the token is reused until shortly
 * before it expires; a failed exchange backs off exponentially, and callers
 * during the back-off fail fast instead of hammering /granttoken. A 429 from
 * /granttoken backs off for at least its Retry-After, and callers meanwhile
 * get UpstreamBusy with the seconds left, not a 502.
 *
 * With `exchangeGate`, an exchange waits for a place in it (one gate for all
 * sites: TOKEN_EXCHANGES_MAX_IN_FLIGHT). With `shared` (REDIS_URL), the
 * instances of the site share one token through SharedTokenStore: before
 * exchanging, an instance adopts the token another stored, or takes the lock
 * and exchanges while the others poll for what it stores; a lock left by a
 * holder that died expires by itself, and a refused token is removed from
 * Redis as well, so no instance adopts it again.
 */
export class TokenManager {
  private token: { value: string; renewAt: number } | undefined;
  private inFlight: Promise<string> | undefined;
  private failures = 0;
  private retryAt = 0;
  /** The back-off follows a 429: callers during it are told the upstream is busy. */
  private busy = false;
  private readonly now: () => number;
  private readonly renewBeforeMs: number;
  private readonly shared: SharedTokenStore | undefined;
  /** The last token upstream refused: never adopted again from Redis, whatever Redis still holds. */
  private refused: string | undefined;
  /** The refused token's removal from Redis, awaited before Redis is read again. */
  private forgetting: Promise<void> = Promise.resolve();

  constructor(private readonly options: TokenManagerOptions) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now().getTime();
    this.renewBeforeMs = options.renewBeforeMs ?? 60_000;
    this.shared = options.shared && new SharedTokenStore(options.shared, options, options.timeoutMs + LOCK_MARGIN_MS);
  }

  /** A valid token, exchanging for a new one only when needed. */
  async get(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return this.token.value;
    this.inFlight ??= this.obtain().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Drops a token upstream refused, unless a newer one already replaced it; in Redis too, if it is the one there. */
  invalidate(rejected: string): void {
    if (this.token?.value === rejected) this.token = undefined;
    if (!this.shared || this.refused === rejected) return;
    this.refused = rejected;
    const shared = this.shared;
    this.forgetting = this.forgetting.then(() => shared.forget(rejected));
  }

  /** A token from Redis when another instance got one, else from an exchange of this instance's own. */
  private async obtain(): Promise<string> {
    this.refuseDuringBackOff();
    if (!this.shared) return this.gated(() => this.exchange());
    await this.forgetting;
    const shared = this.shared;
    // Past this, a lock that is still there is no longer trusted: exchange regardless.
    const giveUpAt = Date.now() + shared.lockTtlMs + LOCK_MARGIN_MS;
    for (;;) {
      const adopted = await this.adoptShared();
      if (adopted) return adopted;
      const token = await this.gated(async () => {
        // Waiting for the gate may have taken a while: another instance may have the token by now.
        const meanwhile = await this.adoptShared();
        if (meanwhile) return meanwhile;
        const lock = await shared.lock();
        if (lock === 'held-elsewhere') return undefined;
        try {
          const value = await this.exchange();
          if (this.token?.value === value) await shared.write(value, this.token.renewAt - this.now());
          return value;
        } finally {
          if (lock === 'acquired') await shared.unlock();
        }
      });
      if (token) return token;
      if (Date.now() >= giveUpAt) return this.gated(() => this.exchange());
      await new Promise((resolve) => setTimeout(resolve, SHARED_POLL_MS));
    }
  }

  /** The token in Redis, taken as this instance's own until Redis would drop it; none when absent or refused here. */
  private async adoptShared(): Promise<string | undefined> {
    const found = await this.shared?.read();
    if (!found || found.value === this.refused) return undefined;
    this.token = { value: found.value, renewAt: this.now() + found.remainingMs };
    return found.value;
  }

  private gated<T>(task: () => Promise<T>): Promise<T> {
    return this.options.exchangeGate ? this.options.exchangeGate.run(task) : task();
  }

  private refuseDuringBackOff(): void {
    const waitMs = this.retryAt - this.now();
    if (waitMs > 0) {
      if (this.busy) throw new UpstreamBusy(Math.ceil(waitMs / 1000));
      throw new UpstreamUnavailable('auth', 'token exchange is backing off after a failure');
    }
  }

  private async exchange(): Promise<string> {
    // Checked again after the gate: a failure while this call waited started a back-off.
    this.refuseDuringBackOff();
    try {
      const { body } = await fetchUpstream({
        url: `${this.options.upstreamUrl}/granttoken`,
        route: '/granttoken',
        method: 'POST',
        headers: { 'x-app-key': this.options.appKey, 'x-app-secret-key': this.options.appSecretKey },
        timeoutMs: this.options.timeoutMs,
        maxBodyBytes: this.options.maxBodyBytes,
        call: 'token exchange',
        refuse: (status) =>
          status === 200 ? undefined : new UpstreamUnavailable(status >= 500 ? 'server_error' : 'auth', `token exchange answered ${status}`),
        logger: this.options.logger,
        outcome: this.options.observer && ((outcome) => this.options.observer!.upstreamRequest('POST /granttoken', outcome)),
      });
      const { access_token, expires_in } = AccessTokenResponse.extend({ expires_in: z.number().positive() }).parse(body);
      const lifetimeMs = expires_in * 1000;
      this.token = { value: access_token, renewAt: this.now() + Math.max(lifetimeMs - this.renewBeforeMs, lifetimeMs / 2) };
      this.failures = 0;
      this.retryAt = 0;
      this.busy = false;
      this.options.observer?.tokenExchange('ok');
      return access_token;
    } catch (error) {
      this.failures += 1;
      const backOffMs = Math.min(BACKOFF_START_MS * 2 ** (this.failures - 1), BACKOFF_MAX_MS);
      this.busy = error instanceof UpstreamBusy;
      this.options.observer?.tokenExchange(this.busy ? 'busy' : 'failed');
      this.retryAt = this.now() + (error instanceof UpstreamBusy ? Math.max(backOffMs, error.retryAfterSeconds * 1000) : backOffMs);
      if (error instanceof UpstreamBusy) throw error;
      throw exchangeFailure(error);
    }
  }
}

/**
 * A failed exchange as UpstreamUnavailable that never arrived, whatever it did
 * upstream: an exchange books nothing, so the call waiting for its token (a
 * booking) surely was not sent.
 */
function exchangeFailure(error: unknown): UpstreamUnavailable {
  const failure = toUpstreamUnavailable(error);
  return failure.mayHaveArrived ? new UpstreamUnavailable(failure.reason, failure.message) : failure;
}
