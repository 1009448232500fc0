import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorBody } from '../../../contract/index.js';
import { removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { appointmentIdOf, startBff, startStubUpstream, type RunningBff, type StubUpstream } from '../support/bff-harness.js';

/**
 * A slow booking is never booked twice: bookings wait for upstream longer than
 * reads do, a booking that still times out is answered as "outcome unknown",
 * and re-sending it with the same Idempotency-Key gives the patient their own
 * booking back, never a 409 for their own slot.
 */

const BffBooked = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ reference: z.string(), doctor_id: z.number().int().positive().nullable() }).strict(),
});

const CREDENTIALS = { appKey: 'ck_booking_timeout', secret: 'booking-timeout-secret-0123456789' };
const TOKEN = { access_token: 'stub-token-timeout-0123456789abcdef', expires_in: 3600 };

const book = (bff: RunningBff, body: unknown, key?: string) =>
  fetch(`${bff.api}/appointments/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });

async function expectOutcomeUnknown(res: Response): Promise<ErrorBody> {
  expect(res.status).toBe(504);
  const body = ErrorBody.parse(await res.json());
  expect(body.error_code).toBe('booking_outcome_unknown');
  expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return body;
}

describe('the booking timeout (stub upstream)', () => {
  let stub: StubUpstream;
  let bff: RunningBff;
  /** How long the stub takes to answer a booking, and a read. */
  let bookingDelayMs = 0;
  let readDelayMs = 0;

  beforeAll(async () => {
    stub = await startStubUpstream(async (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify(TOKEN));
      if (req.url === '/api/v1/appointments/book') {
        await sleep(bookingDelayMs);
        return void res.end(JSON.stringify({ success: true, message: 'Appointment booked successfully', data: { appointment_id: 31 } }));
      }
      await sleep(readDelayMs);
      res.end(JSON.stringify({ success: true, data: [] }));
    });
    bff = await startBff(stub.api, CREDENTIALS, { upstreamTimeoutMs: 200, bookingTimeoutMs: 1_500 });
  });
  afterAll(async () => {
    await bff.close();
    await stub.close();
  });

  it('waits for a booking longer than UPSTREAM_TIMEOUT_MS, up to BOOKING_TIMEOUT_MS', async () => {
    bookingDelayMs = 600;

    const res = await book(bff, validBooking(), 'slow-but-in-time');

    expect(res.status).toBe(200);
    expect(appointmentIdOf(bff, BffBooked.parse(await res.json()).data.reference)).toBe(31);
  });

  it('keeps UPSTREAM_TIMEOUT_MS for reads: a read as slow is 504 upstream_timeout', async () => {
    readDelayMs = 600;

    const res = await fetch(`${bff.api}/organization`);

    expect(res.status).toBe(504);
    expect(ErrorBody.parse(await res.json()).error_code).toBe('upstream_timeout');
  });

  it('answers a booking still unanswered at BOOKING_TIMEOUT_MS with 504 booking_outcome_unknown, saying so', async () => {
    // Far past the timeout, so "answered at the timeout, not when the upstream answered" holds on a busy machine too.
    bookingDelayMs = 10_000;

    const started = performance.now();
    const body = await expectOutcomeUnknown(await book(bff, validBooking(), 'too-slow'));
    const elapsed = performance.now() - started;

    expect(elapsed).toBeGreaterThanOrEqual(1_400);
    expect(elapsed).toBeLessThan(6_000);
    expect(body.message).toMatch(/may (or may not )?have been (made|booked)/i);
    expect(body.message).toContain('Idempotency-Key');
  });
});

/**
 * A proxy in front of the real reference server. It forwards every request at
 * once, so the server commits the booking, but can hold the server's answer to
 * the first booking (as a slow network or load balancer would), or hold the
 * first booking itself before forwarding it.
 */
class DelayingProxy {
  api = '';
  /** Settles when the held first booking has been answered by the server. */
  firstBookingAnswered?: Promise<void>;
  private mode: { kind: 'hold-answer' | 'hold-request'; ms: number } | undefined;
  private answered: () => void = () => undefined;
  private server?: Server;
  private readonly held = new Set<NodeJS.Timeout>();

  constructor(private readonly upstream: string) {}

  /** The next booking's answer (or request) waits `ms` before it goes on; later ones pass at once. */
  delayNextBooking(kind: 'hold-answer' | 'hold-request', ms: number): void {
    this.mode = { kind, ms };
    this.firstBookingAnswered = new Promise((resolve) => (this.answered = resolve));
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.forward(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.api = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1`;
  }

  async close(): Promise<void> {
    for (const timer of this.held) clearTimeout(timer);
    this.server!.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.held.delete(timer);
        resolve();
      }, ms);
      this.held.add(timer);
    });
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const delay = req.url?.endsWith('/appointments/book') ? this.mode : undefined;
    if (delay) this.mode = undefined;
    if (delay?.kind === 'hold-request') await this.wait(delay.ms);
    const target = new URL(`${this.upstream}${req.url!.replace(/^\/api\/v1/, '')}`);
    const answered = delay ? this.answered : () => undefined;
    const upstreamReq = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, async (upstreamRes) => {
      const body: Buffer[] = [];
      for await (const chunk of upstreamRes) body.push(chunk as Buffer);
      answered();
      if (delay?.kind === 'hold-answer') await this.wait(delay.ms);
      if (res.destroyed) return;
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      res.end(Buffer.concat(body));
    });
    upstreamReq.on('error', () => res.destroy());
    upstreamReq.end(Buffer.concat(chunks));
  }
}

describe('a booking whose answer is delayed past BOOKING_TIMEOUT_MS (real server behind a delaying proxy)', () => {
  let upstream: TestServer;
  let clinic: SeededClinic;
  let proxy: DelayingProxy;
  let bff: RunningBff;

  beforeAll(async () => {
    upstream = await startTestServer();
    clinic = await seedClinic(upstream);
    proxy = new DelayingProxy(upstream.api);
    await proxy.start();
    bff = await startBff(proxy.api, clinic, { bookingTimeoutMs: 400 });
  });
  afterAll(async () => {
    await bff.close();
    await proxy.close();
    await upstream.close();
    removeDb(upstream.dbPath);
  });

  const appointmentsOf = (patient: string) =>
    upstream.db.selectFrom('appointments').select(['appointment_id', 'appointment_time']).where('patient_name', '=', patient).execute();

  it('answers 504 booking_outcome_unknown while the server commits the booking behind it', async () => {
    const booking = validBooking({ patient_name: 'Held Answer', appointment_time: '10:30', doctor_id: 1 });
    proxy.delayNextBooking('hold-answer', 1_500);

    await expectOutcomeUnknown(await book(bff, booking, 'held-answer-key'));

    await proxy.firstBookingAnswered;
    expect(await appointmentsOf('Held Answer')).toHaveLength(1);
  });

  it('gives the patient their own booking when they re-send it with the same Idempotency-Key, never a 409', async () => {
    const booking = validBooking({ patient_name: 'Resent Patient', appointment_time: '11:00', doctor_id: 1 });
    proxy.delayNextBooking('hold-answer', 1_500);
    await expectOutcomeUnknown(await book(bff, booking, 'resent-key'));
    await proxy.firstBookingAnswered;

    const res = await book(bff, booking, 'resent-key');

    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    const appointment_id = appointmentIdOf(bff, BffBooked.parse(await res.json()).data.reference);
    const rows = await appointmentsOf('Resent Patient');
    expect(rows).toEqual([{ appointment_id, appointment_time: '11:00' }]);
  });

  it('(why the key matters) would have refused the same re-send without the key as 409 for the patient’s own slot', async () => {
    const booking = validBooking({ patient_name: 'Keyless Patient', appointment_time: '11:30', doctor_id: 1 });
    proxy.delayNextBooking('hold-answer', 1_500);
    await expectOutcomeUnknown(await book(bff, booking, 'keyless-first'));
    await proxy.firstBookingAnswered;

    const res = await book(bff, booking);

    expect(res.status).toBe(409);
  });

  it('books once when the re-send overtakes the held first request: whichever arrives second is a replay', async () => {
    const booking = validBooking({ patient_name: 'Overtaken Patient', appointment_time: '12:00', doctor_id: 1 });
    proxy.delayNextBooking('hold-request', 1_000);
    await expectOutcomeUnknown(await book(bff, booking, 'overtaken-key'));

    const res = await book(bff, booking, 'overtaken-key');

    expect(res.status).toBe(200);
    const appointment_id = appointmentIdOf(bff, BffBooked.parse(await res.json()).data.reference);
    await proxy.firstBookingAnswered;
    expect(await appointmentsOf('Overtaken Patient')).toEqual([{ appointment_id, appointment_time: '12:00' }]);
  });
});

describe('the booking rate limit and re-sends', () => {
  it('does not count a booking answered 504, so its re-send with the same key is not refused 429', async () => {
    let slowFirst = true;
    const stub = await startStubUpstream(async (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify(TOKEN));
      if (req.url !== '/api/v1/appointments/book') return void res.end(JSON.stringify({ success: true, data: [] }));
      if (slowFirst) {
        slowFirst = false;
        await sleep(800);
      }
      res.end(JSON.stringify({ success: true, message: 'Appointment booked successfully', data: { appointment_id: 32 } }));
    });
    const bff = await startBff(stub.api, CREDENTIALS, { bookingTimeoutMs: 300, bookingRateLimit: { limit: 1, windowMs: 60_000 } });
    try {
      await expectOutcomeUnknown(await book(bff, validBooking(), 'resent-once'));

      const again = await book(bff, validBooking(), 'resent-once');

      expect(again.status).toBe(200);
      expect(appointmentIdOf(bff, BffBooked.parse(await again.json()).data.reference)).toBe(32);
      expect((await book(bff, validBooking({ appointment_time: '11:00' }), 'another')).status).toBe(429);
    } finally {
      await bff.close();
      await stub.close();
    }
  });
});
