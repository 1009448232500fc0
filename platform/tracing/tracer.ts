import { trace, type Tracer } from '@opentelemetry/api';

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
