import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/JSON attribute value, as the exporters write them. */
interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: AnyValue }[];
}

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

/** One span as received, with its service's name and its attributes as a plain object. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Absent (or empty) for a root span. */
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
}

export const SERVER_KIND = 2;
export const CLIENT_KIND = 3;

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to: the exporters post to its /v1/traces. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Every request body received, as text: for what must appear nowhere in them. */
  bodies: string[];
  /** Paths and content types of every request, for a test to see what came. */
  requests: string[];
  close(): Promise<void>;
}

const valueOf = (value: AnyValue) => value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.doubleValue ?? value.boolValue;
const attributesOf = (list: { key: string; value: AnyValue }[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/**
 * A collector of our own: an HTTP server taking OTLP/HTTP with JSON bodies
 * (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json) at POST /v1/traces, keeping
 * every span it is sent and answering as a collector does (200, an empty
 * partial success). Anything else is answered 404 and recorded.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      if (req.method !== 'POST' || req.url !== '/v1/traces' || req.headers['content-type'] !== 'application/json') {
        res.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      for (const resourceSpans of (JSON.parse(body) as ExportRequest).resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    bodies,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
