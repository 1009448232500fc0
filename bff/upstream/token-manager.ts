import { z } from 'zod';
import { AccessTokenResponse } from '../../contract/index.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import { UpstreamUnavailable } from './errors.js';

export interface TokenManagerOptions {
  upstreamUrl: string;
  appKey: string;
  appSecretKey: string;
  timeoutMs: number;
  /** Renew this long before expires_in runs out, so no request carries a dying token. */
  renewBeforeMs?: number;
  clock?: Clock;
}

const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 30_000;

/**
 * Holds the one access token of this BFF's app key. One exchange at a time
 * whatever the concurrency (single flight); the token is reused until shortly
 * before it expires; a failed exchange backs off exponentially, and callers
 * during the back-off fail fast instead of hammering /granttoken.
 */
export class TokenManager {
  private token: { value: string; renewAt: number } | undefined;
  private inFlight: Promise<string> | undefined;
  private failures = 0;
  private retryAt = 0;
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
    if (this.now() < this.retryAt) {
      throw new UpstreamUnavailable('auth', 'token exchange is backing off after a failure');
    }
    try {
      const res = await fetch(`${this.options.upstreamUrl}/granttoken`, {
        method: 'POST',
        headers: { 'x-app-key': this.options.appKey, 'x-app-secret-key': this.options.appSecretKey },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new UpstreamUnavailable(res.status >= 500 ? 'server_error' : 'auth', `token exchange answered ${res.status}`);
      }
      const { access_token, expires_in } = AccessTokenResponse.extend({ expires_in: z.number().positive() }).parse(await res.json());
      const lifetimeMs = expires_in * 1000;
      this.token = { value: access_token, renewAt: this.now() + Math.max(lifetimeMs - this.renewBeforeMs, lifetimeMs / 2) };
      this.failures = 0;
      this.retryAt = 0;
      return access_token;
    } catch (error) {
      this.failures += 1;
      this.retryAt = this.now() + Math.min(BACKOFF_START_MS * 2 ** (this.failures - 1), BACKOFF_MAX_MS);
      throw toUpstreamUnavailable(error);
    }
  }
}

/** Maps fetch failures to UpstreamUnavailable without their messages (which may echo URLs). */
export function toUpstreamUnavailable(error: unknown): UpstreamUnavailable {
  if (error instanceof UpstreamUnavailable) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new UpstreamUnavailable('timeout', 'upstream timed out');
  if (error instanceof z.ZodError) return new UpstreamUnavailable('server_error', 'upstream answered an unexpected body');
  return new UpstreamUnavailable('unreachable', 'upstream unreachable');
}
