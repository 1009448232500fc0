import { context, trace, type Tracer } from '@opentelemetry/api';

/**
 * The tracer every span of both services comes from. Without an SDK (traces
 * off) it is @opentelemetry/api's no-op; startTracing registers the SDK's.
 */
export const tracer: Tracer = trace.getTracer('clinic-booking');

let started = false;

/**
 * Whether this process exports traces (startTracing ran with an endpoint).
 * The chokepoints ask this first, so that with traces off a request builds no
 * span, no attribute object and no context: one boolean read.
 */
export const tracing = (): boolean => started;

/** Called by startTracing once the SDK is registered. */
export function markTracingStarted(): void {
  started = true;
}

/**
 * `work`, bound to the trace active now, for work that runs later from
 * somewhere else (a queue another request's turn empties): its spans then
 * belong to the caller's trace, not to whoever ran the queue. `work` itself
 * when traces are off.
 */
export function inCallersTrace<A extends unknown[], R>(work: (...args: A) => R): (...args: A) => R {
  return tracing() ? context.bind(context.active(), work) : work;
}
