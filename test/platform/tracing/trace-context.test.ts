import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { TraceparentOnly } from '../../../platform/tracing/trace-context.js';
import { BROWSER_SPAN_ID, BROWSER_TRACE_ID, browserTraceHeaders } from '../../bff/tracing/support/browser-trace.js';

/** The span context `inbound` takes from `headers`, as withServerSpans asks for it (undefined: a trace of its own). */
const extracted = (inbound: 'traceparent' | 'none', headers: Record<string, string | string[]>) =>
  trace.getSpanContext(new TraceparentOnly(inbound).extract(ROOT_CONTEXT, headers, defaultTextMapGetter));

/** The headers written for an outbound call made in a span of `traceFlags`. */
function injected(traceFlags: number): Record<string, string> {
  const carrier: Record<string, string> = {};
  const context = trace.setSpanContext(ROOT_CONTEXT, { traceId: BROWSER_TRACE_ID, spanId: BROWSER_SPAN_ID, traceFlags });
  new TraceparentOnly('none').inject(context, carrier, defaultTextMapSetter);
  return carrier;
}

describe('TraceparentOnly, the trace context both services read and write', () => {
  it('continues a traceparent for the server, without its tracestate', () => {
    expect(extracted('traceparent', browserTraceHeaders('01'))).toEqual({
      traceId: BROWSER_TRACE_ID,
      spanId: BROWSER_SPAN_ID,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
  });

  it('takes nothing from a request to the BFF, a well-formed traceparent included', () => {
    expect(extracted('none', browserTraceHeaders('01'))).toBeUndefined();
  });

  it.each([
    ['version ff', `ff-${BROWSER_TRACE_ID}-${BROWSER_SPAN_ID}-01`],
    ['version 00 with a fifth field', `00-${BROWSER_TRACE_ID}-${BROWSER_SPAN_ID}-01-extra`],
    ['upper-case hex', `00-${BROWSER_TRACE_ID.toUpperCase()}-${BROWSER_SPAN_ID}-01`],
    ['a trace id of zeros', `00-${'0'.repeat(32)}-${BROWSER_SPAN_ID}-01`],
    ['a span id of zeros', `00-${BROWSER_TRACE_ID}-${'0'.repeat(16)}-01`],
    ['a short trace id', `00-${BROWSER_TRACE_ID.slice(1)}-${BROWSER_SPAN_ID}-01`],
    ['free text', 'not a traceparent'],
  ])('starts afresh on a traceparent with %s', (_case, traceparent) => {
    expect(extracted('traceparent', { traceparent })).toBeUndefined();
  });

  it('starts afresh when traceparent is sent twice', () => {
    const { traceparent } = browserTraceHeaders('01');
    expect(extracted('traceparent', { traceparent: [traceparent, traceparent] })).toBeUndefined();
  });

  it('reads a later version by its first four fields', () => {
    expect(extracted('traceparent', { traceparent: `01-${BROWSER_TRACE_ID}-${BROWSER_SPAN_ID}-01-what-comes-next` })?.traceId).toBe(BROWSER_TRACE_ID);
  });

  it('writes only traceparent on the way out, with the sampled flag alone', () => {
    expect(injected(TraceFlags.SAMPLED | 0x80)).toEqual({ traceparent: `00-${BROWSER_TRACE_ID}-${BROWSER_SPAN_ID}-01` });
    expect(injected(TraceFlags.NONE)).toEqual({ traceparent: `00-${BROWSER_TRACE_ID}-${BROWSER_SPAN_ID}-00` });
  });

  it('writes nothing outside a trace', () => {
    const carrier = {};
    new TraceparentOnly('traceparent').inject(ROOT_CONTEXT, carrier, defaultTextMapSetter);
    expect(carrier).toEqual({});
  });
});
