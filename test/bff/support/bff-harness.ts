import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBff, type Bff, type BffDeps } from '../../../bff/app.js';
import { parseBffConfig, type BffConfig } from '../../../bff/config.js';
import { readReference } from '../../../bff/booking/booking-reference.js';
import type { Clock } from '../../../platform/clock.js';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';
import { createLogger } from '../../../platform/logger.js';
import type { BffMetrics } from '../../../bff/metrics/bff-metrics.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import {
  collectLogLines,
  removeDb,
  seedClinic,
  startTestServer,
  type SeededClinic,
  type TestServer,
  type TestServerOptions,
} from '../../server/support/test-server.js';
import { clinicFixture } from '../../server/support/clinic-fixture.js';
import { FakeClock, TEST_NOW } from '../../support/fake-clock.js';
import { closeWhenScopeEnds, once } from '../../support/scoped-teardown.js';
import type { ClinicFile } from '../../../server/clinics/clinic-file.js';
import type { TakenSlots } from '../../../bff/availability/taken-slots.js';
import { appointmentEnd } from '../../../contract/rules/appointment-interval.js';

/**
 * The fixture clinic as the BFF's tests meet it on the reference server: a
 * booking without a treatment lasts 15 minutes there, one step of the BFF's
 * availability grid (contract/rules/slots.ts), which is how long the BFF
 * takes such a booking to be (startBff's BOOKING_DEFAULT_DURATION_MINUTES);
 * the server's own default is 30 minutes.
 */
export const BFF_FIXTURE_DEFAULT_MINUTES = 15;
export const bffClinicFixture = (): ClinicFile => ({ ...clinicFixture(), booking_rules: { default_duration_minutes: BFF_FIXTURE_DEFAULT_MINUTES } });

/** The BFF these tests start, which always serves a default clinic: its token manager, cache and taken slots are there. */
export interface RunningBff extends Omit<Bff, 'tokens' | 'cache' | 'takenSlots'>, Required<Pick<Bff, 'tokens' | 'cache' | 'takenSlots'>> {
  baseUrl: string;
  api: string;
  config: BffConfig;
  /** Every log line the BFF wrote. */
  logs: string[];
  close(): Promise<void>;
}

/** Listens on an ephemeral 127.0.0.1 port; returns the base URL. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes a server and every connection it holds. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The real BFF on an ephemeral port in front of `upstreamApi` (…/api/v1); with
 * `redis`, as under REDIS_URL. Its clock stands at TEST_NOW, the time the
 * reference server of these tests runs at (so that a booking for the day
 * after is ahead, as it is there), unless a test gives its own. Closed when
 * the test or the file or describe that started it ends (closeWhenScopeEnds).
 */
export async function startBff(
  upstreamApi: string,
  credentials: { appKey: string; secret: string },
  overrides: Partial<BffConfig> = {},
  clock: Clock = new FakeClock(TEST_NOW),
  redis?: RedisLink,
  metrics?: BffMetrics,
  /** The sites of a BFF database (test/bff/sites), served at /s/{site_id} beside the clinic above. */
  sites?: BffDeps['sites'],
  /** How outbound calls resolve host names (test/bff/outbound): the system's resolver when absent. */
  resolveHost?: BffDeps['resolveHost'],
  /** The BFF's own database (booking records, change requests, the outbox: test/bff/changes); absent, none. */
  database?: BffDeps['database'],
): Promise<RunningBff> {
  const { lines: logs, sink } = collectLogLines();
  // The schema's defaults, with the settings these tests run under, then each test's own.
  const config: BffConfig = {
    ...parseBffConfig({
      UPSTREAM_URL: upstreamApi,
      APP_KEY: credentials.appKey,
      APP_SECRET_KEY: credentials.secret,
      // One per clinic here, never the app secret (a restarted BFF of the clinic reads its references).
      BOOKING_REF_SECRET: `test-booking-reference-secret:${credentials.appKey}`,
      PORT: '0',
      ALLOWED_ORIGINS: 'https://clinic.example',
      CACHE_MAX_STALE_MS: '3600000',
      CACHE_MAX_BYTES: String(1024 * 1024),
      // Long enough for a cold first request on a busy machine (a token exchange and four reads at once);
      // a test of timeouts sets its own.
      UPSTREAM_TIMEOUT_MS: '10000',
      API_RATE_LIMIT: '10000',
      BOOKING_RATE_LIMIT: '1000',
      BOOKING_RATE_WINDOW_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: '1000',
      // The length bffClinicFixture gives the reference server's bookings without a treatment.
      BOOKING_DEFAULT_DURATION_MINUTES: String(BFF_FIXTURE_DEFAULT_MINUTES),
    }),
    ...overrides,
  };
  const bff = createBff({ config, logger: createLogger('info', sink), clock, redis, metrics, sites, database, resolveHost });
  const { tokens, cache, takenSlots } = bff;
  if (!tokens || !cache || !takenSlots) throw new Error('startBff serves a default clinic: give it its upstream and keys');
  const server = createHttpServer(bff.app);
  const baseUrl = await listen(server);
  const close = once(() => closeServer(server));
  closeWhenScopeEnds(close);
  return { ...bff, tokens, cache, takenSlots, baseUrl, api: `${baseUrl}/api`, config, logs, close };
}

/**
 * The upstream appointment id inside a reference `bff` issued: browsers never
 * see it, so tests that look for the booking upstream read it as the BFF does.
 */
export function appointmentIdOf(bff: RunningBff, reference: string): number {
  const id = readReference(reference, bff.config.referenceKey);
  if (id === undefined) throw new Error(`not a reference of this BFF: ${reference}`);
  return id;
}

export interface Stack {
  upstream: TestServer;
  clinic: SeededClinic;
  bff: RunningBff;
  /** How many times the reference server answered this path (from its request log). */
  upstreamHits(path: string): number;
  close(): Promise<void>;
}

/**
 * The real reference server (temp SQLite, fake clock at TEST_NOW) with a
 * seeded clinic, and the BFF in front, on the server's own clock unless a
 * test gives the BFF one: one time for the whole stack. Started at a file's
 * or a describe's top level (`const stack = await startStack()`) or in a
 * test, it closes itself when that scope ends: no afterAll to write.
 */
export async function startStack(
  options: {
    bff?: Partial<BffConfig>;
    clock?: Clock;
    clinic?: ClinicFile;
    server?: TestServerOptions;
    bffMetrics?: BffMetrics;
    resolveHost?: BffDeps['resolveHost'];
    /** The BFF's own database, which the caller opens and closes. */
    database?: BffDeps['database'];
  } = {},
): Promise<Stack> {
  const upstream = await startTestServer(options.server);
  const clinic = await seedClinic(upstream, options.clinic ?? bffClinicFixture());
  const bff = await startBff(
    upstream.api,
    clinic,
    options.bff,
    options.clock ?? upstream.clock,
    undefined,
    options.bffMetrics,
    undefined,
    options.resolveHost,
    options.database,
  );
  const close = once(async () => {
    await bff.close();
    await upstream.close();
    removeDb(upstream.dbPath);
  });
  closeWhenScopeEnds(close);
  return {
    upstream,
    clinic,
    bff,
    upstreamHits: (path) =>
      upstream.logs.filter((line) => (JSON.parse(line) as { req?: { path?: string } }).req?.path === `/api/v1${path}`).length,
    close,
  };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type StubHandler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface StubUpstream {
  api: string;
  requests: RecordedRequest[];
  /** Replace how the stub answers from now on. */
  handle(handler: StubHandler): void;
  close(): Promise<void>;
}

/**
 * A fake upstream for faults the real server cannot be made to show: 5xx,
 * slow answers, odd bodies. Answers /api/v1/granttoken with a token by
 * default; every request is recorded with its headers and body. Closed when
 * the scope that started it ends, as startStack is.
 */
export async function startStubUpstream(initial?: StubHandler): Promise<StubUpstream> {
  const requests: RecordedRequest[] = [];
  let handler: StubHandler = initial ?? defaultStub;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      void Promise.resolve(handler(recorded, res)).catch(() => res.destroy());
    });
  });
  const baseUrl = await listen(server);
  const close = once(() => closeServer(server));
  closeWhenScopeEnds(close);
  return {
    api: `${baseUrl}/api/v1`,
    requests,
    handle: (next) => (handler = next),
    close,
  };
}

/** Grants a token; answers every other path with a 200 empty treatment list. */
export const defaultStub: StubHandler = (req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/api/v1/granttoken') {
    res.end(JSON.stringify({ access_token: 'stub-token-0123456789abcdef', expires_in: 3600 }));
    return;
  }
  res.end(JSON.stringify({ success: true, data: [] }));
};

/** True when the BFF knows the dentist to be held at the minute `time` (HH:MM) of `date`. */
export async function heldAt(taken: TakenSlots, doctorId: number, date: string, time: string): Promise<boolean> {
  return (await taken.takenOn(date, [doctorId])).overlaps(doctorId, time, appointmentEnd(time, 1));
}

/** The fixture clinic's ids as the BFF serves them: its two dentists, and a treatment by its length. */
export async function fixtureIds(bff: RunningBff): Promise<{ dentists: [number, number]; treatmentLasting(minutes: number): number }> {
  const dentists = ((await (await fetch(`${bff.api}/dentists`)).json()) as { data: { doctor_id: number }[] }).data.map((d) => d.doctor_id);
  const treatments = ((await (await fetch(`${bff.api}/treatments`)).json()) as { data: { treatment_id: number; duration_minutes: number }[] }).data;
  return {
    dentists: dentists as [number, number],
    treatmentLasting: (minutes) => treatments.find((t) => t.duration_minutes === minutes)!.treatment_id,
  };
}
