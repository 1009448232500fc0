import { noteRouteTemplates } from './server-spans.js';
import { markTracingStarted } from './tracer.js';
import { TraceparentOnly, type InboundTrace } from './trace-context.js';

/** How long a drained process waits for its last spans to be sent before it exits anyway. */
export const FLUSH_TIMEOUT_MS = 5000;

interface RunningSdk {
  shutdown(): Promise<void>;
}

let sdk: RunningSdk | undefined;

/**
 * Starts exporting traces when OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set; otherwise does nothing, and
 * @opentelemetry/sdk-node is never imported (its exporters and their
 * dependencies cost start-up time and memory a clinic not tracing should not
 * pay). Every other OTEL_* variable is the SDK's own: the protocol
 * (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, http/protobuf by default, http/json
 * or grpc), headers, sampler, batch delays, resource attributes.
 *
 * No instrumentation library is registered: in an ESM process those need a
 * loader hook, and they would record what this project must not (full URLs
 * holding booking references, SQL parameters). The spans are made by hand at
 * the few places each kind of work passes (docs/operations.md, "Traces").
 * Only traces: metrics are Prometheus's (METRICS_PORT), logs are pino's.
 *
 * Trace context travels as a W3C `traceparent` alone, whatever
 * OTEL_PROPAGATORS says: never `tracestate` or `baggage` (TraceparentOnly).
 * `inbound` says whether a `traceparent` in a request this service answers
 * is continued (the server) or ignored (the BFF, whose callers are browsers).
 *
 * `defaultServiceName` is service.name unless OTEL_SERVICE_NAME (or
 * OTEL_RESOURCE_ATTRIBUTES) says otherwise. Resolves true when tracing.
 */
export async function startTracing(defaultServiceName: string, inbound: InboundTrace, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (sdk || !(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) return sdk !== undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const named = env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  const started = new NodeSDK({
    ...(named ? {} : { serviceName: defaultServiceName }),
    instrumentations: [],
    textMapPropagator: new TraceparentOnly(inbound),
    // Left to the environment, the SDK would also export OTLP metrics and logs: neither is made here.
    metricReaders: [],
    logRecordProcessors: [],
  });
  started.start();
  sdk = started;
  markTracingStarted();
  noteRouteTemplates();
  return true;
}

/**
 * Sends the spans not yet exported and stops the SDK, waiting at most
 * FLUSH_TIMEOUT_MS (a collector that is down must not hold a drained process
 * up); at once when traces are off. serve() calls it once the last request
 * has finished.
 */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  if (!running) return;
  sdk = undefined;
  let timer: NodeJS.Timeout | undefined;
  const givenUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS).unref()));
  await Promise.race([running.shutdown().catch(() => undefined), givenUp]);
  clearTimeout(timer);
}
