import { isSpanContextValid, trace, TraceFlags, type Context, type SpanContext, type TextMapGetter, type TextMapPropagator, type TextMapSetter } from '@opentelemetry/api';

/**
 * Which trace context a service takes from the requests it answers: the
 * server continues a W3C `traceparent` (its callers are systems: the BFF,
 * an integrator's back end), the BFF none (its callers are browsers, which
 * anyone can make send anything). docs/security.md, "Traces".
 */
export type InboundTrace = 'traceparent' | 'none';

const TRACEPARENT = 'traceparent';

/** W3C Trace Context: version, trace id, parent span id, flags, in lower-case hex; a later version may append fields. */
const TRACEPARENT_FORMAT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})(-.*)?$/;

/**
 * The one propagator of both services: W3C `traceparent` and nothing else.
 * It never reads or writes `tracestate` or `baggage` (the SDK's default,
 * OTEL_PROPAGATORS=tracecontext,baggage, does both): free text a caller
 * chooses, which would be sent on to the clinic's API with every call and,
 * for tracestate, written into every exported span. A `traceparent` is read
 * only under `inbound: 'traceparent'`; one is always written on the way
 * out, so that the server's spans of a BFF call join the BFF's trace.
 */
export class TraceparentOnly implements TextMapPropagator {
  constructor(private readonly inbound: InboundTrace) {}

  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    const span = trace.getSpanContext(context);
    if (!span || !isSpanContextValid(span)) return;
    const sampled = span.traceFlags & TraceFlags.SAMPLED ? '01' : '00';
    setter.set(carrier, TRACEPARENT, `00-${span.traceId}-${span.spanId}-${sampled}`);
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    if (this.inbound === 'none') return context;
    const header = getter.get(carrier, TRACEPARENT);
    // Sent twice, it is no one trace context (W3C Trace Context, 4.3).
    const value = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
    const parent = value === undefined ? undefined : parseTraceparent(value.trim());
    return parent ? trace.setSpanContext(context, parent) : context;
  }

  fields(): string[] {
    return [TRACEPARENT];
  }
}

/** The span context a `traceparent` names, undefined when it is malformed (W3C Trace Context, 3.2 and 4.3). */
export function parseTraceparent(value: string): SpanContext | undefined {
  const match = TRACEPARENT_FORMAT.exec(value);
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, more] = match as unknown as [string, string, string, string, string, string | undefined];
  // ff is never a version; version 00 has exactly four fields.
  if (version === 'ff' || (version === '00' && more !== undefined)) return undefined;
  const parent = { traceId, spanId, traceFlags: parseInt(flags, 16) & TraceFlags.SAMPLED, isRemote: true };
  return isSpanContextValid(parent) ? parent : undefined;
}
