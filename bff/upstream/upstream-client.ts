import type { TokenManager } from './token-manager.js';
import { toUpstreamUnavailable } from './token-manager.js';
import { UpstreamUnavailable } from './errors.js';

export interface UpstreamAnswer {
  status: number;
  body: unknown;
  /** Upstream's Retry-After on a 429, passed on to the browser. */
  retryAfter?: string;
}

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Path under UPSTREAM_URL, e.g. /treatments. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Calls the upstream /api/v1 with this BFF's credentials. An upstream 401
 * drops the token, exchanges once more and retries the request once, so an
 * expired or revoked-and-replaced token never reaches the browser as an error.
 * 5xx, timeouts and network failures become UpstreamUnavailable.
 */
export class UpstreamClient {
  constructor(
    private readonly baseUrl: string,
    private readonly appKey: string,
    private readonly tokens: TokenManager,
    private readonly timeoutMs: number,
  ) {}

  async call(request: UpstreamRequest): Promise<UpstreamAnswer> {
    const first = await this.send(request, await this.tokens.get());
    if (first.status !== 401) return first.answer;
    this.tokens.invalidate(first.token);
    const second = await this.send(request, await this.tokens.get());
    if (second.status === 401) throw new UpstreamUnavailable('auth', 'upstream refused a fresh token');
    return second.answer;
  }

  private async send(request: UpstreamRequest, token: string) {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${request.path}`, {
        method: request.method,
        headers: {
          ...request.headers,
          'x-app-key': this.appKey,
          authorization: `Bearer ${token}`,
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw toUpstreamUnavailable(error);
    }
    if (res.status >= 500) {
      await res.body?.cancel();
      throw new UpstreamUnavailable('server_error', `upstream answered ${res.status}`);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch (error) {
      throw toUpstreamUnavailable(error instanceof SyntaxError ? new UpstreamUnavailable('server_error', 'upstream answered non-JSON') : error);
    }
    const retryAfter = res.headers.get('retry-after') ?? undefined;
    return { status: res.status, token, answer: { status: res.status, body, ...(retryAfter ? { retryAfter } : {}) } };
  }
}
