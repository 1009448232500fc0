import type { Logger } from 'pino';
import type { TokenManager } from './token-manager.js';
import { UpstreamUnavailable } from './errors.js';
import { fetchUpstream } from './upstream-fetch.js';
import type { BffObserver } from '../metrics/bff-metrics.js';
import type { ConcurrencyGate } from './concurrency-gate.js';

export interface UpstreamAnswer {
  status: number;
  body: unknown;
  /** Upstream replayed its first answer to this Idempotency-Key (`Idempotent-Replayed: true`). */
  replayed?: true;
}

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Path under UPSTREAM_URL, e.g. /treatments. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** How long to wait for this call; the client's read timeout (UPSTREAM_TIMEOUT_MS) when absent. */
  timeoutMs?: number;
}

/**
 * Calls the upstream /api/v1 with this BFF's credentials. An upstream 401
 * drops the token, exchanges once more and retries the request once, so an
 * expired or revoked-and-replaced token never reaches the browser as an error.
 * A 429 is UpstreamBusy (with upstream's Retry-After, bounded); 5xx, timeouts,
 * network failures, bodies over `maxBodyBytes` and redirects (never followed,
 * reported to `logger`) are UpstreamUnavailable. With a `gate`, every request
 * to upstream waits for a place in it (UPSTREAM_MAX_IN_FLIGHT_PER_SITE), so
 * one busy site cannot take the whole connection pool; token exchanges have a
 * gate of their own (the TokenManager's).
 */
export class UpstreamClient {
  constructor(
    private readonly baseUrl: string,
    private readonly appKey: string,
    private readonly tokens: TokenManager,
    private readonly timeoutMs: number,
    private readonly maxBodyBytes: number,
    private readonly logger?: Logger,
    private readonly observer?: Pick<BffObserver, 'upstreamRequest'>,
    /** This site's gate: at most its limit of requests to upstream in flight. */
    private readonly gate?: ConcurrencyGate,
  ) {}

  async call(request: UpstreamRequest): Promise<UpstreamAnswer> {
    const first = await this.send(request, await this.tokens.get());
    if (first.status !== 401) return first.answer;
    this.tokens.invalidate(first.token);
    const second = await this.send(request, await this.tokens.get());
    if (second.status === 401) throw new UpstreamUnavailable('auth', 'upstream refused a fresh token');
    return second.answer;
  }

  private send(request: UpstreamRequest, token: string) {
    return this.gate ? this.gate.run(() => this.sendNow(request, token)) : this.sendNow(request, token);
  }

  private async sendNow(request: UpstreamRequest, token: string) {
    const route = routeOf(request.path);
    const { status, headers, body } = await fetchUpstream({
      url: `${this.baseUrl}${request.path}`,
      route,
      method: request.method,
      headers: {
        ...request.headers,
        'x-app-key': this.appKey,
        authorization: `Bearer ${token}`,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      timeoutMs: request.timeoutMs ?? this.timeoutMs,
      maxBodyBytes: this.maxBodyBytes,
      call: 'api call',
      refuse: (answered) => (answered >= 500 ? new UpstreamUnavailable('server_error', `upstream answered ${answered}`) : undefined),
      logger: this.logger,
      outcome: this.observer && ((outcome) => this.observer!.upstreamRequest(`${request.method} ${route}`, outcome)),
    });
    const replayed = headers.get('idempotent-replayed') === 'true';
    return { status, token, answer: { status, body, ...(replayed ? { replayed: true as const } : {}) } };
  }
}

/**
 * An upstream path as a route template: a segment with a digit in it is an id
 * (`/appointments/status/42` is `/appointments/status/:id`); the literal
 * segments of /api/v1's paths have none.
 */
export const routeOf = (path: string): string => path.replace(/\/[^/?]*\d[^/?]*/g, '/:id').replace(/\?.*$/, '');
