import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorBody } from '../../../contract/index.js';
import { removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { appointmentIdOf, startBff, startStubUpstream, type RunningBff } from '../support/bff-harness.js';
import { HeldCalls } from '../support/held-calls.js';
import { eventually } from '../../support/eventually.js';
import { expectError } from '../../support/expect-error.js';

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
  /**
   * A stub that holds each booking (`booking`) and each GET /organization (`organization`) until the test lets it
   * go, answering every other read at once, and a BFF in front with reads timing out at 200 ms.
   */
  async function heldUpstream(bookingTimeoutMs: number) {
    const calls = new HeldCalls();
    const stub = await startStubUpstream(async (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify(TOKEN));
      if (req.url === '/api/v1/appointments/book') {
        const answered = await calls.hold('booking');
        res.end(JSON.stringify({ success: true, message: 'Appointment booked successfully', data: { appointment_id: 31 } }));
        return answered();
      }
      if (req.url === '/api/v1/organization') await calls.hold('organization');
      res.end(JSON.stringify({ success: true, data: [] }));
    });
    const bff = await startBff(stub.api, CREDENTIALS, { upstreamTimeoutMs: 200, bookingTimeoutMs });
    return { calls, bff };
  }

  it('waits for a booking longer than UPSTREAM_TIMEOUT_MS, up to BOOKING_TIMEOUT_MS', async () => {
    const { calls, bff } = await heldUpstream(60_000);
    let answered = false;
    const booking = book(bff, validBooking(), 'slow-but-in-time').finally(() => (answered = true));
    await eventually(() => expect(calls.held('booking')).toBe(1));

    // A read sent after the booking reached upstream, and held as long, has timed out by now: the booking waits on.
    await expectError(await fetch(`${bff.api}/organization`), 504, 'upstream_timeout');
    expect(answered).toBe(false);
    calls.release('booking');

    const res = await booking;
    expect(res.status).toBe(200);
    expect(appointmentIdOf(bff, BffBooked.parse(await res.json()).data.reference)).toBe(31);
  });

  it('keeps UPSTREAM_TIMEOUT_MS for reads: a read that never comes is 504 upstream_timeout', async () => {
    const { bff } = await heldUpstream(60_000);

    const res = await fetch(`${bff.api}/organization`);

    await expectError(res, 504, 'upstream_timeout');
  });

  it('answers a booking still unanswered at BOOKING_TIMEOUT_MS with 504 booking_outcome_unknown, saying so', async () => {
    // The booking is never answered: an answer at all is the timeout's, not the upstream's.
    const { bff } = await heldUpstream(500);

    const body = await expectOutcomeUnknown(await book(bff, validBooking(), 'too-slow'));

    expect(body.message).toMatch(/may (or may not )?have been (made|booked)/i);
    expect(body.message).toContain('Idempotency-Key');
  });
});

/**
 * A proxy in front of the real reference server. It forwards every request at
 * once, so the server commits the booking, but can hold the server's answer to
 * the first booking (as a slow network or load balancer would), or hold the
 * first booking itself before forwarding it, until the test lets it go.
 */
class HoldingProxy {
  api = '';
  /** Settles when the held first booking has been answered by the server. */
  firstBookingAnswered?: Promise<void>;
  private mode: 'hold-answer' | 'hold-request' | undefined;
  private answered: () => void = () => undefined;
  private server?: Server;
  private readonly calls = new HeldCalls();

  constructor(private readonly upstream: string) {}

  /** The next booking's answer (or request) is held until release(); later ones pass at once. */
  holdNextBooking(kind: 'hold-answer' | 'hold-request'): void {
    this.mode = kind;
    this.firstBookingAnswered = new Promise((resolve) => (this.answered = resolve));
  }

  /** Lets the held booking (or its answer) go on. */
  release(): void {
    this.calls.releaseOne('booking');
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.forward(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.api = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1`;
  }

  async close(): Promise<void> {
    this.calls.release('booking');
    this.server!.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const hold = req.url?.endsWith('/appointments/book') ? this.mode : undefined;
    if (hold) this.mode = undefined;
    if (hold === 'hold-request') await this.calls.hold('booking');
    const target = new URL(`${this.upstream}${req.url!.replace(/^\/api\/v1/, '')}`);
    const answered = hold ? this.answered : () => undefined;
    const upstreamReq = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, async (upstreamRes) => {
      const body: Buffer[] = [];
      for await (const chunk of upstreamRes) body.push(chunk as Buffer);
      answered();
      if (hold === 'hold-answer') await this.calls.hold('booking');
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
  let proxy: HoldingProxy;
  let bff: RunningBff;

  beforeAll(async () => {
    upstream = await startTestServer();
    clinic = await seedClinic(upstream);
    proxy = new HoldingProxy(upstream.api);
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
    proxy.holdNextBooking('hold-answer');

    await expectOutcomeUnknown(await book(bff, booking, 'held-answer-key'));

    proxy.release();
    await proxy.firstBookingAnswered;
    expect(await appointmentsOf('Held Answer')).toHaveLength(1);
  });

  it('gives the patient their own booking when they re-send it with the same Idempotency-Key, never a 409', async () => {
    const booking = validBooking({ patient_name: 'Resent Patient', appointment_time: '11:00', doctor_id: 1 });
    proxy.holdNextBooking('hold-answer');
    await expectOutcomeUnknown(await book(bff, booking, 'resent-key'));
    proxy.release();
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
    proxy.holdNextBooking('hold-answer');
    await expectOutcomeUnknown(await book(bff, booking, 'keyless-first'));
    proxy.release();
    await proxy.firstBookingAnswered;

    const res = await book(bff, booking);

    expect(res.status).toBe(409);
  });

  it('books once when the re-send overtakes the held first request: whichever arrives second is a replay', async () => {
    const booking = validBooking({ patient_name: 'Overtaken Patient', appointment_time: '12:00', doctor_id: 1 });
    proxy.holdNextBooking('hold-request');
    await expectOutcomeUnknown(await book(bff, booking, 'overtaken-key'));

    const res = await book(bff, booking, 'overtaken-key');

    expect(res.status).toBe(200);
    const appointment_id = appointmentIdOf(bff, BffBooked.parse(await res.json()).data.reference);
    // Only now does the first request reach the server: second, so a replay.
    proxy.release();
    await proxy.firstBookingAnswered;
    expect(await appointmentsOf('Overtaken Patient')).toEqual([{ appointment_id, appointment_time: '12:00' }]);
  });
});

describe('the booking rate limit and re-sends', () => {
  it('does not count a booking answered 504, so its re-send with the same key is not refused 429', async () => {
    // The first booking is held at upstream until it has been answered 504; the re-send passes at once.
    const calls = new HeldCalls();
    let first = true;
    const stub = await startStubUpstream(async (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify(TOKEN));
      if (req.url !== '/api/v1/appointments/book') return void res.end(JSON.stringify({ success: true, data: [] }));
      if (first) {
        first = false;
        await calls.hold('booking');
      }
      res.end(JSON.stringify({ success: true, message: 'Appointment booked successfully', data: { appointment_id: 32 } }));
    });
    const bff = await startBff(stub.api, CREDENTIALS, { bookingTimeoutMs: 300, bookingRateLimit: { limit: 1, windowMs: 60_000 } });
    try {
      await expectOutcomeUnknown(await book(bff, validBooking(), 'resent-once'));
      calls.release('booking');

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
