import { context, propagation, SpanKind, SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import { tracer, tracing } from './tracer.js';

/**
 * Runs `work` in a client span named `name` (when traces are on; otherwise
 * just runs it), the span active meanwhile and ended when `work` settles. A
 * failure marks the span an error with `error.type` the error's name (or its
 * code), never its message: a database's or upstream's message may quote
 * the values it refused.
 *
 * `attributes` is called only when the span records, so that with traces off
 * (or a trace sampled out) no attribute object is built.
 */
export function inClientSpan<T>(name: string, attributes: () => Attributes, work: (span?: Span) => Promise<T>): Promise<T> {
  if (!tracing()) return work();
  return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT }, async (span) => {
    if (span.isRecording()) span.setAttributes(attributes());
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks `span` failed by `error`'s kind alone (its code, reason or name), never by its message. */
export function markFailed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', errorTypeOf(error));
}

const ERROR_TYPE = /^[\w.-]{1,64}$/;

/**
 * An error's code (SQLITE_BUSY, 23505, upstream_busy), else its reason (the
 * BFF's UpstreamUnavailable: timeout, unreachable), else its class name;
 * `_OTHER` for anything else.
 */
export function errorTypeOf(error: unknown): string {
  const { code, reason, name } = (error ?? {}) as { code?: unknown; reason?: unknown; name?: unknown };
  for (const kind of [code, reason, name]) if (typeof kind === 'string' && ERROR_TYPE.test(kind)) return kind;
  return '_OTHER';
}

/**
 * `headers` with the active trace's W3C `traceparent` added (never a
 * `tracestate` or `baggage`: TraceparentOnly), for an outbound HTTP call: a
 * copy, the caller's object unchanged. `headers` itself when traces are off.
 */
export function withTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (!tracing()) return headers;
  const carrier = { ...headers };
  propagation.inject(context.active(), carrier);
  return carrier;
}
