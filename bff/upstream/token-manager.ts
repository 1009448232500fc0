import type { Logger } from 'pino';
import { z } from 'zod';
import { AccessTokenResponse } from '../../contract/index.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import { UpstreamBusy, UpstreamUnavailable } from './errors.js';
import { fetchUpstream, toUpstreamUnavailable } from './upstream-fetch.js';
import type { BffObserver } from '../metrics/bff-metrics.js';

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
}

const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 30_000;

/**
 * Holds the one access token of this BFF's app key. One exchange at a time
 * whatever the concurrency (single flight); the token is reused until shortly
 * before it expires; a failed exchange backs off exponentially, and callers
 * during the back-off fail fast instead of hammering /granttoken. A 429 from
 * /granttoken backs off for at least its Retry-After, and callers meanwhile
 * get UpstreamBusy with the seconds left, not a 502.
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

  constructor(private readonly options: TokenManagerOptions) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now().getTime();
    this.renewBeforeMs = options.renewBeforeMs ?? 60_000;
  }

  /** A valid token, exchanging for a new one only when needed. */
  async get(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return this.token.value;
    this.inFlight ??= this.exchange().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Drops a token upstream refused, unless a newer one already replaced it. */
  invalidate(rejected: string): void {
    if (this.token?.value === rejected) this.token = undefined;
  }

  private async exchange(): Promise<string> {
    const waitMs = this.retryAt - this.now();
    if (waitMs > 0) {
      if (this.busy) throw new UpstreamBusy(Math.ceil(waitMs / 1000));
      throw new UpstreamUnavailable('auth', 'token exchange is backing off after a failure');
    }
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
