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
 * `requests` is the prototype the app's requests are made with (app.request):
 * Express sets `req.route` when a route takes the request, and a setter
 * there notes the route template at that moment, while `req.baseUrl` is still
 * its mount path (an error passed on restores it before the answer).
 */
export function withServerSpans(handle: RequestListener, requests: object): RequestListener {
  if (!tracing()) return handle;
  noteRoutesOf(requests);
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
 * Notes the route template of a request answered without Express's router
 * (operationTable): `path` under the request's mount path. Nothing when
 * traces are off.
 */
export function noteRoute(req: IncomingMessage & { baseUrl?: string }, path: string): void {
  if (!tracing()) return;
  const traced = REQUESTS.get(req);
  if (traced) traced.route = `${req.baseUrl ?? ''}${path}`;
}

const ROUTE = Symbol('route');

/** `req.route` on the requests' prototype: kept as Express sets it, its template noted for the span. */
function noteRoutesOf(requests: object): void {
  if (Object.prototype.hasOwnProperty.call(requests, 'route')) return;
  Object.defineProperty(requests, 'route', {
    configurable: true,
    enumerable: false,
    get(this: { [ROUTE]?: unknown }) {
      return this[ROUTE];
    },
    set(this: IncomingMessage & { baseUrl?: string; [ROUTE]?: unknown }, route: { path?: unknown } | undefined) {
      this[ROUTE] = route;
      const traced = REQUESTS.get(this);
      if (traced && typeof route?.path === 'string') traced.route = `${this.baseUrl ?? ''}${route.path}`;
    },
  });
}
