import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, SERVER_KIND, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.js';
import { startStubUpstream, type RecordedRequest, type StubUpstream } from '../support/bff-harness.js';
import { validUpstreamBodies } from '../support/upstream-bodies.js';
import { startService, type ServiceProcess } from './support/service-processes.js';
import { BROWSER_CHOSEN_TEXT, BROWSER_SPAN_ID, BROWSER_TRACE_ID, browserTraceHeaders } from './support/browser-trace.js';

/** A stub clinic API: a token for the exchange, the fixture clinic's content for the rest; every request recorded. */
function answerAsClinicApi(bodies: Record<string, unknown>) {
  return (req: RecordedRequest, res: ServerResponse) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/v1/granttoken') {
      res.end(JSON.stringify({ access_token: 'stub-token-0123456789abcdef', expires_in: 3600 }));
      return;
    }
    const body = bodies[req.url];
    res.writeHead(body ? 200 : 404).end(JSON.stringify(body ?? { success: false, message: 'Not found', error_code: 'not_found' }));
  };
}

/**
 * The BFF as a real process, exporting to a collector of the test's own,
 * in front of a stub clinic API that records every header it is sent. A
 * browser's request carries a traceparent of its own choosing (marked not
 * sampled), a tracestate and baggage: the BFF starts a trace of its own,
 * and neither the clinic's API nor the collector gets anything of them.
 */
describe("the BFF and a browser's trace context", () => {
  let receiver: OtlpReceiver;
  let upstream: StubUpstream;
  let bff: ServiceProcess | undefined;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    upstream = await startStubUpstream(answerAsClinicApi(validUpstreamBodies('Trace Dental')));
    bff = await startService('bff/main.ts', {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      // Longer than the test: spans reach the collector only through the flush at shutdown.
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      UPSTREAM_URL: upstream.api,
      APP_KEY: 'ck_browser_trace_test',
      APP_SECRET_KEY: 'cs_browser_trace_test',
      BOOKING_REF_SECRET: 'browser-trace-test-booking-reference-secret-0123',
    });
    // One trace context the browser asks to sample, one it asks not to.
    for (const [path, flags] of [['/api/treatments', '01'], ['/api/dentists', '00']] as const) {
      const res = await fetch(`${bff.baseUrl}${path}`, { headers: browserTraceHeaders(flags) });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    expect(await bff.stop()).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await bff?.stop();
    await upstream?.close();
    await receiver?.close();
  });

  const bffRequest = (name: string): ReceivedSpan => {
    const found = receiver.spans.find((span) => span.kind === SERVER_KIND && span.name === name);
    if (!found) throw new Error(`no span ${name}; got ${receiver.spans.map((span) => span.name).join(', ')}`);
    return found;
  };

  it('sends the clinic API no tracestate and no baggage, on the token exchange and every call', () => {
    expect(upstream.requests.map((request) => request.url)).toEqual(['/api/v1/granttoken', '/api/v1/treatments', '/api/v1/dentists']);
    for (const { url, headers } of upstream.requests) {
      expect(headers.tracestate, url).toBeUndefined();
      expect(headers.baggage, url).toBeUndefined();
      expect(JSON.stringify(headers), url).not.toMatch(/browser-chosen/);
    }
  });

  it("sends the clinic API a traceparent of the BFF's own trace, not the browser's", () => {
    const treatments = bffRequest('GET /api/treatments').traceId;
    const dentists = bffRequest('GET /api/dentists').traceId;
    const sent = upstream.requests.map(({ headers }) => /^00-([\da-f]{32})-[\da-f]{16}-01$/.exec(String(headers.traceparent))?.[1]);
    // The token was exchanged for the first request, in its trace.
    expect(sent).toEqual([treatments, treatments, dentists]);
  });

  it("starts a trace of its own for each request, sampled by its own rule whatever the browser's flag said", () => {
    for (const name of ['GET /api/treatments', 'GET /api/dentists']) {
      const span = bffRequest(name);
      expect(span.parentSpanId, name).toBeUndefined();
      expect(span.traceId, name).not.toBe(BROWSER_TRACE_ID);
    }
  });

  it("sends the collector nothing of the browser's trace context", () => {
    const sent = receiver.bodies.join('\n');
    expect(receiver.spans.length).toBeGreaterThan(1);
    for (const chosen of [BROWSER_TRACE_ID, BROWSER_SPAN_ID, ...BROWSER_CHOSEN_TEXT]) {
      expect(sent.includes(chosen), `${chosen} sent to the collector`).toBe(false);
    }
  });
});
