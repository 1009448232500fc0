import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase, removeSqliteFolder, tempDbPath } from '../../server/support/test-database.js';
import { authHeaders, seedDatabase, type SeededKeys } from '../../server/support/seed-database.js';
import { nextWeekdayInLondon } from '../../server/support/future-slot.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, SHARED_REDIS_URL, testKeyPrefix } from '../../support/redis.js';
import { CLIENT_KIND, SERVER_KIND, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.js';
import { startService, type ServiceProcess } from './support/service-processes.js';
import { BROWSER_CHOSEN_TEXT, BROWSER_SPAN_ID, BROWSER_TRACE_ID, browserTraceHeaders } from './support/browser-trace.js';

const PATIENT = { name: 'Philippa Quenby-Hartwell', phone: '+44 7700 900417', note: 'Sensitive molar, lower left' };
const BOOKING_REF_SECRET = 'traces-test-booking-reference-secret-0123456789';
const Booked = z.object({ data: z.object({ reference: z.string() }) });
const withRedis = serviceAvailable('redis');

/**
 * Both services as real processes, exporting to a collector of the test's own
 * over OTLP/HTTP with JSON bodies, the batch delay long enough that spans
 * leave only when each service drains on SIGTERM: one booking and its status
 * lookup through the BFF, then both stopped, then what the collector got.
 */
describe('traces of one booking through the BFF and the server', () => {
  let receiver: OtlpReceiver;
  let dbPath: string;
  let keys: SeededKeys;
  let server: ServiceProcess | undefined;
  let bff: ServiceProcess | undefined;
  let reference: string;
  let tokenHashes: string[];
  let imports: string;
  const redisPrefix = testKeyPrefix('traces');

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    dbPath = tempDbPath();
    keys = await seedDatabase(`file:${dbPath}`);
    const recorded = join(dbPath, '..', 'imports.txt');
    const otel = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      // Longer than the test: spans reach the collector only through the flush at shutdown.
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      ...(withRedis ? { REDIS_URL: SHARED_REDIS_URL, REDIS_KEY_PREFIX: redisPrefix } : {}),
    };
    server = await startService('server/main.ts', { ...otel, DATABASE_URL: `file:${dbPath}` }, recorded);
    bff = await startService('bff/main.ts', {
      ...otel,
      UPSTREAM_URL: `${server.baseUrl}/api/v1`,
      APP_KEY: keys.app_key,
      APP_SECRET_KEY: keys.app_secret_key,
      BOOKING_REF_SECRET,
    }, recorded);

    const booking = await fetch(`${bff.baseUrl}/api/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        patient_name: PATIENT.name,
        patient_phone: PATIENT.phone,
        note: PATIENT.note,
        doctor_id: keys.doctorIds[0],
        treatment_id: keys.treatmentIds[0],
        appointment_date: nextWeekdayInLondon(),
        appointment_time: '10:00',
      }),
    });
    expect(booking.status, await booking.clone().text()).toBe(200);
    reference = Booked.parse(await booking.json()).data.reference;
    const status = await fetch(`${bff.baseUrl}/api/appointments/status/${reference}`);
    expect(await status.text()).toContain(PATIENT.name);
    // A route the BFF answers from its operation table, without Express's router.
    expect((await fetch(`${bff.baseUrl}/api/treatments/${keys.treatmentIds[0]}`)).status).toBe(200);
    // A request a route took and then refused (an error passed on through the mount, unwound before the answer).
    const api = `${server.baseUrl}/api/v1`;
    expect((await fetch(`${api}/treatments/not-a-number`, { headers: await authHeaders(api, keys) })).status).toBe(404);
    // An integrator's system calling the server directly, in a trace of its own, with tracestate and baggage.
    expect((await fetch(`${api}/dentists`, { headers: { ...(await authHeaders(api, keys)), ...browserTraceHeaders('01') } })).status).toBe(200);

    expect(await bff.stop()).toBe(0);
    expect(await server.stop()).toBe(0);
    imports = readFileSync(recorded, 'utf8');
    const db = (await openTestDatabase(`file:${dbPath}`)).kysely;
    tokenHashes = (await db.selectFrom('access_tokens').select('token_hash').execute()).map((row) => row.token_hash);
    await db.destroy();
    // Two services started through tsx and stopped: slow on a busy machine.
  }, 120_000);

  afterAll(async () => {
    await bff?.stop();
    await server?.stop();
    await receiver?.close();
    if (withRedis) {
      const redis = await inspector();
      await redis.cleanUp(redisPrefix);
      await redis.close();
    }
    if (dbPath) removeSqliteFolder(dbPath);
  });

  const ofService = (service: string) => receiver.spans.filter((span) => span.service === service);
  const named = (service: string, name: string): ReceivedSpan => {
    const found = ofService(service).find((span) => span.name === name);
    if (!found) throw new Error(`no span ${name} from ${service}; got ${ofService(service).map((span) => span.name).join(', ')}`);
    return found;
  };
  const childrenOf = (parent: ReceivedSpan) => receiver.spans.filter((span) => span.parentSpanId === parent.spanId);

  it('loads the SDK in both services and sends over OTLP/HTTP with JSON bodies', () => {
    expect(imports).toContain('/@opentelemetry/sdk-node/');
    expect(new Set(receiver.spans.map((span) => span.service))).toEqual(new Set(['clinic-api', 'clinic-bff']));
    expect(receiver.requests.every((request) => request === 'POST /v1/traces application/json')).toBe(true);
  });

  it("makes the booking one trace: the server's spans share the BFF's trace id", () => {
    const bffIn = named('clinic-bff', 'POST /api/appointments/book');
    expect(bffIn.kind).toBe(SERVER_KIND);
    expect(bffIn.parentSpanId).toBeUndefined();
    const serverIn = named('clinic-api', 'POST /api/v1/appointments/book');
    expect(serverIn.traceId).toBe(bffIn.traceId);
    const booking = receiver.spans.filter((span) => span.traceId === bffIn.traceId);
    expect(new Set(booking.map((span) => span.service))).toEqual(new Set(['clinic-api', 'clinic-bff']));
  });

  it("hangs the server's inbound span under the BFF's outbound call, itself under the BFF's request", () => {
    const serverIn = named('clinic-api', 'POST /api/v1/appointments/book');
    const call = receiver.spans.find((span) => span.spanId === serverIn.parentSpanId);
    expect(call).toMatchObject({
      service: 'clinic-bff',
      kind: CLIENT_KIND,
      name: 'POST /appointments/book',
      attributes: { 'http.request.method': 'POST', 'url.template': '/appointments/book', 'http.response.status_code': 200 },
    });
    expect(call?.parentSpanId).toBe(named('clinic-bff', 'POST /api/appointments/book').spanId);
    expect(serverIn.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/v1/appointments/book', 'http.response.status_code': 200 });
  });

  it("records the booking's queries under the server's inbound span, by statement and table", () => {
    const queries = childrenOf(named('clinic-api', 'POST /api/v1/appointments/book')).filter((span) => span.attributes['db.system'] === 'sqlite');
    expect(queries.map((span) => span.name)).toContain('INSERT appointments');
    for (const query of queries) expect(query.kind).toBe(CLIENT_KIND);
    expect(queries.find((span) => span.name === 'INSERT appointments')?.attributes).toEqual({
      'db.system': 'sqlite',
      'db.operation': 'INSERT',
      'db.sql.table': 'appointments',
    });
  });

  it('names the status lookup by its route templates, on both sides', () => {
    const lookup = named('clinic-bff', 'GET /api/appointments/status/:reference');
    expect(lookup.attributes['http.route']).toBe('/api/appointments/status/:reference');
    const call = receiver.spans.find((span) => span.parentSpanId === lookup.spanId && span.attributes['url.template'] !== undefined);
    expect(call?.name).toBe('GET /appointments/status/:id');
    expect(named('clinic-api', 'GET /api/v1/appointments/status/:id').parentSpanId).toBe(call?.spanId);
  });

  it('names a request answered without the router, or refused after a route took it, by its route template', () => {
    expect(named('clinic-bff', 'GET /api/treatments/:id').attributes).toMatchObject({ 'http.route': '/api/treatments/:id', 'http.response.status_code': 200 });
    expect(named('clinic-api', 'GET /api/v1/treatments/:id').attributes).toMatchObject({ 'http.route': '/api/v1/treatments/:id', 'http.response.status_code': 404 });
  });

  it('exchanges the token in a span of its own, in the trace of the request that needed it', () => {
    const exchange = named('clinic-bff', 'POST /granttoken');
    expect(named('clinic-api', 'POST /api/v1/granttoken').parentSpanId).toBe(exchange.spanId);
  });

  it("continues the traceparent of a caller of the server, and takes nothing of its tracestate or baggage", () => {
    const inCallersTrace = receiver.spans.filter((span) => span.traceId === BROWSER_TRACE_ID && span.kind === SERVER_KIND);
    expect(inCallersTrace).toEqual([expect.objectContaining({ service: 'clinic-api', name: 'GET /api/v1/dentists', parentSpanId: BROWSER_SPAN_ID })]);
    const sent = receiver.bodies.join('\n');
    for (const chosen of BROWSER_CHOSEN_TEXT) expect(sent.includes(chosen), `${chosen} sent to the collector`).toBe(false);
  });

  it.runIf(withRedis)('records Redis commands by name alone', () => {
    const commands = receiver.spans.filter((span) => span.attributes['db.system'] === 'redis');
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      expect(command.attributes).toEqual({ 'db.system': 'redis', 'db.operation': command.name });
      expect(command.name).toMatch(/^[A-Z]+$/);
    }
  });

  it("puts no patient's name, phone or note, no reference and no secret in anything it sends", () => {
    const sent = receiver.bodies.join('\n');
    expect(receiver.spans.length).toBeGreaterThan(10);
    const phoneDigits = PATIENT.phone.replace(/\D/g, '');
    for (const secret of [PATIENT.name, PATIENT.phone, phoneDigits, PATIENT.note, reference, keys.app_secret_key, BOOKING_REF_SECRET]) {
      expect(sent.includes(secret), `${secret} sent to the collector`).toBe(false);
    }
    for (const part of PATIENT.name.split(/[\s-]+/)) expect(sent.includes(part), `${part} sent`).toBe(false);
    // No header at all: neither the word nor a value of one.
    expect(sent).not.toMatch(/bearer|authorization|x-app-secret/i);
  });

  it('sends no access token: no 43-character run of anything sent is a token the server issued', () => {
    expect(tokenHashes.length).toBeGreaterThan(0);
    const runs = receiver.bodies.join('\n').match(/[A-Za-z0-9_-]{43,}/g) ?? [];
    for (const run of runs) {
      for (let start = 0; start + 43 <= run.length; start++) {
        expect(tokenHashes).not.toContain(hash('sha256', run.slice(start, start + 43), 'base64url'));
      }
    }
  });

  it('records no path, URL or query of any request: route templates only', () => {
    for (const span of receiver.spans) {
      expect(Object.keys(span.attributes).filter((key) => /^url\.(path|full|query)$/.test(key))).toEqual([]);
      expect(`${span.name} ${String(span.attributes['http.route'] ?? '')} ${String(span.attributes['url.template'] ?? '')}`).not.toMatch(/\/\d+/);
    }
  });
});
