import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BffMetrics } from '../../../bff/metrics/bff-metrics.js';
import { serveMetrics } from '../../../platform/metrics/metrics-server.js';
import { ServiceMetrics } from '../../../platform/metrics/service-metrics.js';
import { createLogger } from '../../../platform/logger.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { grantToken, validBooking } from '../../server/support/test-server.js';
import { closeServer, startStack } from '../support/bff-harness.js';

/** A metrics listener for `registry`, closed when the test ends; its base URL. */
async function metricsListener(registry: ServiceMetrics['registry']): Promise<string> {
  const server = await serveMetrics(registry, { port: 0, host: '127.0.0.1' }, createLogger('silent'));
  onTestFinished(() => closeServer(server));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The BFF in front of the reference server, each counting into metrics of its own, each scraped over HTTP as
 * Prometheus would: a stack of the test's own, so that every count is what the test did.
 */
async function measuredStack() {
  const clock = new FakeClock(TEST_NOW);
  const serverMetrics = new ServiceMetrics();
  const bffMetrics = new BffMetrics();
  const stack = await startStack({
    clock,
    server: { clock, metrics: serverMetrics },
    bff: { statusRateLimit: { limit: 100_000, windowMs: 60_000 } },
    bffMetrics,
  });
  const book = (body: unknown) =>
    fetch(`${stack.bff.api}/appointments/book`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { clock, stack, book, serverScrape: await metricsListener(serverMetrics.registry), bffScrape: await metricsListener(bffMetrics.registry) };
}

async function scrape(base: string): Promise<string> {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one series, e.g. `bookings_total{outcome="booked"}`; 0 when it is not there. */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** Every series of one metric (its lines, labels and all). */
const seriesOf = (text: string, metric: string) => text.split('\n').filter((line) => line.startsWith(`${metric}{`) || line.startsWith(`${metric} `));


describe('metrics on their own listener', () => {
  it('serves the process metrics and request durations in Prometheus text, and 404 elsewhere', async () => {
    const { stack, bffScrape } = await measuredStack();
    await fetch(`${stack.bff.api}/treatments`);
    const text = await scrape(bffScrape);
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(valueOf(text, 'http_request_duration_seconds_count{method="GET",route="/api/treatments",status="200"}')).toBeGreaterThanOrEqual(1);
    for (const elsewhere of [await fetch(`${bffScrape}/other`), await fetch(`${bffScrape}/metrics`, { method: 'POST' })]) {
      expect(elsewhere.status).toBe(404);
      expect(await elsewhere.text()).toBe('not found\n');
    }
  });

  it('labels the server\'s requests by route template, its upstream calls by operation, its token exchanges by outcome', async () => {
    const { stack, serverScrape, bffScrape } = await measuredStack();
    await fetch(`${stack.bff.api}/treatments/1`);
    const server = await scrape(serverScrape);
    expect(valueOf(server, 'http_request_duration_seconds_count{method="GET",route="/api/v1/treatments",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(server, 'http_request_duration_seconds_count{method="POST",route="/api/v1/granttoken",status="200"}')).toBe(1);
    const bff = await scrape(bffScrape);
    expect(valueOf(bff, 'bff_token_exchanges_total{outcome="ok"}')).toBe(1);
    expect(valueOf(bff, 'bff_upstream_requests_total{operation="POST /granttoken",outcome="2xx"}')).toBe(1);
    expect(valueOf(bff, 'bff_upstream_requests_total{operation="GET /treatments",outcome="2xx"}')).toBe(1);
  });

  it('counts content lookups as miss, hit and stale', async () => {
    const { stack, clock, bffScrape } = await measuredStack();
    const before = await scrape(bffScrape);
    await fetch(`${stack.bff.api}/dentists`);
    await fetch(`${stack.bff.api}/dentists`);
    clock.advance(stack.bff.config.cache.ttlMs + 1_000);
    await fetch(`${stack.bff.api}/dentists`);
    const after = await scrape(bffScrape);
    const delta = (result: string) =>
      valueOf(after, `bff_cache_lookups_total{resource="dentists",result="${result}"}`) -
      valueOf(before, `bff_cache_lookups_total{resource="dentists",result="${result}"}`);
    expect([delta('miss'), delta('hit'), delta('stale')]).toEqual([1, 1, 1]);
  });

  it('counts bookings by outcome in both services', async () => {
    const { stack, book, serverScrape, bffScrape } = await measuredStack();
    const token = await grantToken(stack.upstream, stack.clinic);
    expect(token).toBeTruthy();
    const dentist = { doctor_id: 1, appointment_time: '11:00' };
    expect((await book(validBooking(dentist))).status).toBe(200);
    expect((await book(validBooking(dentist))).status).toBe(409);
    expect((await book({ patient_name: '' })).status).toBe(400);
    const bff = await scrape(bffScrape);
    expect(valueOf(bff, 'bookings_total{outcome="booked"}')).toBe(1);
    expect(valueOf(bff, 'bookings_total{outcome="conflict"}')).toBe(1);
    expect(valueOf(bff, 'bookings_total{outcome="refused"}')).toBe(1);
    const server = await scrape(serverScrape);
    expect(valueOf(server, 'bookings_total{outcome="booked"}')).toBe(1);
    expect(valueOf(server, 'bookings_total{outcome="conflict"}')).toBe(1);
  });
});

describe('label cardinality', () => {
  it('stays bounded after 1,000 distinct ids, references and paths, and names none of them', async () => {
    const { stack, serverScrape, bffScrape } = await measuredStack();
    const token = await grantToken(stack.upstream, stack.clinic);
    const sent: string[] = [];
    for (let i = 0; i < 1_000; i += 1) {
      const id = String(100_000 + i);
      const reference = randomBytes(10).toString('hex');
      sent.push(id, reference);
      await fetch(`${stack.bff.api}/treatments/${id}`);
      await fetch(`${stack.bff.api}/appointments/status/${reference}`);
      await fetch(`${stack.bff.api}/nothing-here-${reference}`);
      await fetch(`${stack.upstream.api}/dentists/${id}`, { headers: { authorization: `Bearer ${token}`, 'x-app-key': stack.clinic.appKey } });
    }
    for (const base of [bffScrape, serverScrape]) {
      const text = await scrape(base);
      const series = seriesOf(text, 'http_request_duration_seconds_count');
      expect(series.length).toBeLessThan(30);
      // Every label value of every series: none is an id, a reference or a path that was sent.
      const labelValues = new Set([...text.matchAll(/="([^"]*)"/g)].map((match) => match[1]!));
      expect(sent.filter((value) => [...labelValues].some((label) => label.includes(value)))).toEqual([]);
      expect(text).toContain('route="unmatched"');
    }
  }, 120_000);
});
