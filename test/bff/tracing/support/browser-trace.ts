/** A trace context as a browser (anyone) may send one: a trace it chose, with free text beside it. */
export const BROWSER_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const BROWSER_SPAN_ID = '00f067aa0ba902b7';
export const BROWSER_TRACESTATE = 'acme=browser-chosen-tracestate-7731';
export const BROWSER_BAGGAGE = 'user.id=browser-chosen-baggage-9921';

/** The headers of that trace context; `flags` 00 asks not to sample it, 01 to sample it. */
export const browserTraceHeaders = (flags: '00' | '01') => ({
  traceparent: `00-${BROWSER_TRACE_ID}-${BROWSER_SPAN_ID}-${flags}`,
  tracestate: BROWSER_TRACESTATE,
  baggage: BROWSER_BAGGAGE,
});

/** Every piece of it that must reach no collector and no upstream (the trace ids, where a service must not continue them). */
export const BROWSER_CHOSEN_TEXT = ['browser-chosen', 'acme=', 'user.id='];
