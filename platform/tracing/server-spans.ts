import { tracingChannel } from 'node:diagnostics_channel';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { tracer, tracing } from './tracer.js';

/** What the server span of a request in flight knows: the span, and the route template once one matched. */
interface Traced {
  span: Span;
  method: string;
  route?: string;
}

const REQUESTS = new WeakMap<IncomingMessage, Traced>();

/**
 * The listener `handle` with a server span around each request (when traces
 * are on; otherwise `handle` itself, unchanged): continuing the trace of an
 * incoming W3C `traceparent` where the service takes one (the server, from
 * the BFF's upstream call; the BFF starts a trace of its own for every
 * request: TraceparentOnly), active while the request is handled, so the
 * spans of its upstream calls, queries and Redis commands are its children,
 * and ended when the answer is sent or the client went away.
 *
 * Its name and attributes are those of OpenTelemetry's HTTP conventions, with
 * one deliberate gap: the path is never recorded (no `url.path`, no
 * `url.full`), only the route template (`/api/appointments/status/:reference`),
 * since a BFF status lookup's path holds a booking reference. A request no
 * route took is named by its method alone. No header, query or body is read.
 *
 * The route template is noted when a route takes the request
 * (noteRouteTemplates), while `req.baseUrl` is still its mount path (an error
 * passed on restores it before the answer).
 */
export function withServerSpans(handle: RequestListener): RequestListener {
  if (!tracing()) return handle;
  return (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
    const traced: Traced = { span, method };
    REQUESTS.set(req, traced);
    if (span.isRecording()) {
      span.setAttributes({ 'http.request.method': method, 'url.scheme': 'http', 'network.protocol.version': req.httpVersion });
      res.once('close', () => endServerSpan(traced, res));
    }
    context.with(trace.setSpan(parent, span), () => handle(req, res));
  };
}

function endServerSpan({ span, method, route }: Traced, res: ServerResponse): void {
  if (route !== undefined) {
    span.updateName(`${method} ${route}`);
    span.setAttribute('http.route', route);
  }
  span.setAttribute('http.response.status_code', res.statusCode);
  if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  // The answer was cut short: the client went away, or the connection failed.
  if (!res.writableFinished) span.setAttribute('error.type', 'aborted');
  span.end();
}

/**
 * Notes the route template of a request: `path` under the request's mount
 * path, for the router's routes (noteRouteTemplates). Nothing when traces are off.
 */
function noteRoute(req: IncomingMessage & { baseUrl?: string }, path: string): void {
  if (!tracing()) return;
  const traced = REQUESTS.get(req);
  if (traced) traced.route = `${req.baseUrl ?? ''}${path}`;
}

/** What Express's router publishes on `express.router.request` for each handler it runs (router 2.3's README, "Diagnostics"). */
interface RouterInvocation {
  req: IncomingMessage & { baseUrl?: string; route?: { path?: unknown } };
  /** The path pattern that matched: a route's own path for its handlers, the mount path for middleware. */
  route?: unknown;
}

/**
 * Notes the route template of each request a route of Express's router takes,
 * from the router's own tracing channel: when one of the route's handlers
 * starts (the first may be a rate limit or the JSON body reader that refuses
 * the request), its path under the request's mount path. Subscribed once, by
 * startTracing: with traces off the router publishes nothing.
 */
export function noteRouteTemplates(): void {
  tracingChannel('express.router.request').start.subscribe((message) => {
    const { req, route } = message as RouterInvocation;
    // Middleware run with the path they were mounted at; a route's handlers with req.route, the route itself.
    if (typeof route === 'string' && req.route?.path === route) noteRoute(req, route);
  });
}
