import type { Attributes, Span } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { z } from 'zod';
import { inClientSpan, withTraceHeaders } from '../../platform/tracing/client-spans.js';
import { retryAfterSeconds, UpstreamBusy, UpstreamUnavailable } from './errors.js';
import { readJsonWithin, withDeadline } from './bounded-body.js';
import { NO_REDIRECTS, refuseRedirect } from './redirects.js';
import type { UpstreamOutcome } from '../metrics/bff-metrics.js';

/** One call to the upstream API, as the token manager and the upstream client each make theirs. */
export interface UpstreamFetch {
  url: string;
  /** The path under UPSTREAM_URL with any id as `:id` (`/appointments/status/:id`): what its span is named by. */
  route: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** The JSON text to send, if any. */
  body?: string;
  /** How long the whole call may take, its answer's body included. */
  timeoutMs: number;
  /** The most of the answer's body that is read. */
  maxBodyBytes: number;
  /** Which call this is, for the warning a refused redirect logs. */
  call: 'token exchange' | 'api call';
  /**
   * The failure an answer of this status is, its body left unread; undefined
   * for an answer whose body the caller reads. (429 and 3xx are refused
   * before this is asked.)
   */
  refuse(status: number): UpstreamUnavailable | undefined;
  /** Where a refused redirect is reported. */
  logger?: Logger;
  /** Told how the call ended (bff_upstream_requests_total); absent, nothing is counted. */
  outcome?: (outcome: UpstreamOutcome) => void;
}

/** An upstream answer: its status, headers and JSON body. */
export interface FetchedAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * Makes one upstream call: under one deadline for the call and its body
 * (withDeadline), never following a redirect (refuseRedirect), a 429 as
 * UpstreamBusy with upstream's Retry-After (bounded), and the JSON body read
 * within `maxBodyBytes` (readJsonWithin). Every other failure is an
 * UpstreamUnavailable without its message (which may echo a URL); one that
 * happened once the request may have reached upstream is marked so
 * (mayHaveArrived): for a booking, upstream may have acted on it.
 */
export function fetchUpstream(request: UpstreamFetch): Promise<FetchedAnswer> {
  return inClientSpan(`${request.method} ${request.route}`, () => upstreamCallAttributes(request), (span) => fetchWithin(request, span));
}

function fetchWithin(request: UpstreamFetch, span?: Span): Promise<FetchedAnswer> {
  return withDeadline(request.timeoutMs, async (call) => {
    let answered: number | undefined;
    try {
      const res = await fetch(request.url, {
        method: request.method,
        // W3C traceparent: the server's spans of this call join the BFF's trace.
        headers: withTraceHeaders(request.headers),
        body: request.body,
        signal: call.signal,
        ...NO_REDIRECTS,
      });
      answered = res.status;
      span?.setAttribute('http.response.status_code', res.status);
      await refuseRedirect(res, request.logger, request.call);
      if (res.status === 429) {
        await res.body?.cancel();
        throw new UpstreamBusy(retryAfterSeconds(res.headers.get('retry-after')));
      }
      const refusal = request.refuse(res.status);
      if (refusal) {
        await res.body?.cancel();
        throw refusal;
      }
      const answer = { status: res.status, headers: res.headers, body: await readJsonWithin(res, request.maxBodyBytes, () => call.abort()) };
      request.outcome?.(statusClass(res.status));
      return answer;
    } catch (error) {
      if (error instanceof UpstreamBusy) {
        request.outcome?.('busy');
        throw error;
      }
      const failure = toUpstreamUnavailable(error, { sent: true });
      // An answer refused for its status (a 5xx, a 3xx) or its body counts by its status; a timeout as one.
      request.outcome?.(failure.reason === 'timeout' ? 'timeout' : answered === undefined ? 'unreachable' : statusClass(answered));
      throw failure;
    }
  });
}

function statusClass(status: number): UpstreamOutcome {
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  return '2xx';
}

/**
 * An upstream call's span attributes (OpenTelemetry's HTTP client
 * conventions): the route template, never the URL, whose path may hold an id.
 */
function upstreamCallAttributes({ url, method, route }: UpstreamFetch): Attributes {
  const { hostname, port, protocol } = new URL(url);
  return {
    'http.request.method': method,
    'url.template': route,
    'server.address': hostname,
    'server.port': Number(port) || (protocol === 'https:' ? 443 : 80),
  };
}

/** Failures that happen before a connection is open: the request surely never reached upstream. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Maps fetch failures to UpstreamUnavailable without their messages (which may
 * echo URLs). With `sent`, a timeout or a connection lost once open is marked
 * mayHaveArrived: upstream may have acted on the request.
 */
export function toUpstreamUnavailable(error: unknown, { sent = false } = {}): UpstreamUnavailable {
  if (error instanceof UpstreamUnavailable) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new UpstreamUnavailable('timeout', 'upstream timed out', sent);
  if (error instanceof z.ZodError) return new UpstreamUnavailable('server_error', 'upstream answered an unexpected body');
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return new UpstreamUnavailable('unreachable', 'upstream unreachable', sent && !(typeof code === 'string' && CONNECT_FAILURES.has(code)));
}
