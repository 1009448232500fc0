import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import type { RedisLink } from '../../../platform/redis-link.js';
import { removeDb, seedClinic, startTestServer, validBooking, type SeededClinic, type TestServer } from '../../server/support/test-server.js';
import { serviceAvailable } from '../../support/service-available.js';
import { inspector, openLink, testKeyPrefix } from '../../support/redis.js';
import { bffClinicFixture, closeServer, startBff, startStubUpstream, type RunningBff } from '../support/bff-harness.js';
import { eventually } from '../../support/eventually.js';
import { HeldCalls } from '../support/held-calls.js';
import { expectError } from '../../support/expect-error.js';

/**
 * A booking counts against the per-IP booking limit once it has been sent
 * upstream, whatever its client does after. Clients that hang up at several
 * moments of a booking, against the real reference server behind a hop that
 * can hold a booking at each of those moments, never get more than
 * BOOKING_RATE_LIMIT bookings stored from one IP; counted in this process's
 * memory and in Redis alike. Only an answer that proves nothing was booked
 * gives the count back: a refusal before anything went upstream, and a 504
 * whose re-send with its Idempotency-Key will replay.
 */

const LIMIT = 3;
/** Hang-ups tried per moment: more than the limit lets through. */
const ATTEMPTS = LIMIT + 2;

type Moment = 'before upstream has it' | 'while upstream is slow to answer' | 'after upstream answered, before the BFF did';

/** One booking the hop holds: `reached` once it is at the moment, `release()` lets it go on, `delivered` once the BFF has upstream's whole answer. */
interface Hold {
  reached: Promise<void>;
  release(): void;
  delivered: Promise<void>;
}

/**
 * Between the BFF and the reference server: passes everything at once, but
 * holds the next booking at a chosen moment. 'before upstream has it': the
 * booking waits in the hop, the server has not seen it. 'while upstream is
 * slow to answer': the server has stored it, its answer waits in the hop.
 * 'after upstream answered, before the BFF did': the BFF has the answer's
 * status line, headers and all but its last byte.
 */
class HoldingHop {
  api = '';
  private server?: Server;
  private next?: { moment: Moment; hold: Hold; reach: () => void; released: Promise<void>; deliver: () => void };

  constructor(private readonly upstream: string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.forward(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.api = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v1`;
  }

  close(): Promise<void> {
    return closeServer(this.server!);
  }

  /** Forgets a hold no booking came for (the BFF refused it first). */
  dropHold(): void {
    this.next = undefined;
  }

  holdNextBooking(moment: Moment): Hold {
    let reach = () => undefined as void;
    let release = () => undefined as void;
    let deliver = () => undefined as void;
    const reached = new Promise<void>((resolve) => (reach = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const delivered = new Promise<void>((resolve) => (deliver = resolve));
    const hold = { reached, release, delivered };
    this.next = { moment, hold, reach, released, deliver };
    return hold;
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const held = req.url?.endsWith('/appointments/book') ? this.next : undefined;
    if (held) this.next = undefined;
    if (held?.moment === 'before upstream has it') {
      held.reach();
      await held.released;
    }
    const target = new URL(`${this.upstream}${req.url!.replace(/^\/api\/v1/, '')}`);
    const upstreamReq = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, async (upstreamRes) => {
      const body: Buffer[] = [];
      for await (const chunk of upstreamRes) body.push(chunk as Buffer);
      const answer = Buffer.concat(body);
      const headers = { ...upstreamRes.headers, 'content-length': String(answer.length) };
      delete headers['transfer-encoding'];
      if (held?.moment === 'while upstream is slow to answer') {
        held.reach();
        await held.released;
      }
      res.writeHead(upstreamRes.statusCode ?? 502, headers);
      if (held?.moment === 'after upstream answered, before the BFF did') {
        res.write(answer.subarray(0, -1));
        held.reach();
        await held.released;
        res.end(answer.subarray(-1));
      } else {
        res.end(answer);
      }
      res.once('finish', () => held?.deliver());
    });
    upstreamReq.on('error', () => res.destroy());
    upstreamReq.end(Buffer.concat(chunks));
  }
}

/** The BFF's access log lines for bookings: one per booking, written when its answer was sent or its client went away. */
const bookingLines = (bff: RunningBff) =>
  bff.logs.filter((line) => (JSON.parse(line) as { req?: { path?: string } }).req?.path === '/api/appointments/book').length;

/**
 * A booking whose client hangs up at `hold`'s moment; resolves with the BFF's
 * answer when it came first (a 429), else undefined once the BFF has the
 * booking's whole upstream answer. The held booking goes on only once the BFF
 * has seen its client go (its access line for it): on a real network the
 * hang-up reaches the BFF long before a slow upstream answers.
 */
function bookAndHangUp(bff: RunningBff, body: unknown, hold: Hold): Promise<{ status: number } | undefined> {
  const payload = JSON.stringify(body);
  const linesBefore = bookingLines(bff);
  return new Promise((resolve, reject) => {
    const req = request(`${bff.api}/appointments/book`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'idempotency-key': `hang-up-${Math.random()}` },
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
    void hold.reached.then(() => {
      // The client is gone; then the held booking goes on to the server, or its answer to the BFF.
      req.destroy();
      void eventually(() => expect(bookingLines(bff)).toBe(linesBefore + 1))
        .then(() => {
          hold.release();
          return hold.delivered;
        })
        .then(() => resolve(undefined), reject);
    });
    req.end(payload);
  });
}

/** The per-IP counting the BFF is given: its own memory, or a Redis shared by every BFF of the clinic. */
const STORES = [
  ['in memory', false],
  ['in Redis', true],
] as const;

describe.each(STORES)('the booking limit counted %s', (_name, inRedis) => {
  let upstream: TestServer;
  let clinic: SeededClinic;
  let hop: HoldingHop;

  beforeAll(async () => {
    upstream = await startTestServer();
    clinic = await seedClinic(upstream, bffClinicFixture());
    hop = new HoldingHop(upstream.api);
    await hop.start();
  });
  afterAll(async () => {
    await hop.close();
    await upstream.close();
    removeDb(upstream.dbPath);
  });

  /** A BFF in front of the hop with a fresh booking budget of `limit`, counted where this suite counts (Redis under a prefix of its own). */
  async function bffWithBudget(limit: number): Promise<{ bff: RunningBff; close(): Promise<void> }> {
    const prefix = testKeyPrefix('bff-booking-hang-up');
    const redis: RedisLink | undefined = inRedis ? await openLink(prefix) : undefined;
    const bff = await startBff(hop.api, clinic, { bookingRateLimit: { limit, windowMs: 60_000 } }, undefined, redis);
    return {
      bff,
      async close() {
        hop.dropHold();
        await bff.close();
        if (!redis) return;
        await redis.close();
        const inspect = await inspector();
        await inspect.cleanUp(prefix);
        await inspect.close();
      },
    };
  }

  const stored = async (patient: string) =>
    (await upstream.db.selectFrom('appointments').select('appointment_id').where('patient_name', '=', patient).execute()).length;

  it.runIf(!inRedis || serviceAvailable('redis')).each([
    // Each moment books its own dentist and hours, so no slot is taken twice.
    ['before upstream has it', 1, 8],
    ['while upstream is slow to answer', 2, 8],
    ['after upstream answered, before the BFF did', 1, 13],
  ] as const)('stores at most BOOKING_RATE_LIMIT bookings from one IP whose clients all hang up %s', async (moment, doctorId, firstHour) => {
    const { bff, close } = await bffWithBudget(LIMIT);
    const patient = `Hang-up ${moment}`;
    const at = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
    try {
      const answers = [];
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const hold = hop.holdNextBooking(moment);
        const answer = await bookAndHangUp(bff, validBooking({ patient_name: patient, doctor_id: doctorId, appointment_time: at(firstHour + attempt) }), hold);
        // Refused before it went anywhere: nothing came to the hop to hold.
        if (answer) hop.dropHold();
        answers.push(answer);
      }

      // Every booking let through went upstream and is stored; the rest were refused before.
      expect(await stored(patient)).toBe(LIMIT);
      expect(answers.filter((answer) => answer === undefined)).toHaveLength(LIMIT);
      expect(answers.filter((answer) => answer !== undefined)).toEqual(Array(ATTEMPTS - LIMIT).fill({ status: 429 }));
      // And a patient on this IP who waits for the answer is refused too: the budget is spent.
      const next = await fetch(`${bff.api}/appointments/book`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(validBooking({ patient_name: patient, doctor_id: doctorId, appointment_time: at(firstHour + ATTEMPTS) })),
      });
      expect(next.status).toBe(429);
      expect(await stored(patient)).toBe(LIMIT);
    } finally {
      await close();
    }
  });

  it.runIf(!inRedis || serviceAvailable('redis'))(
    'gives back a booking refused before anything went upstream: bad fields, the honeypot, malformed JSON, another content type',
    async () => {
      const { bff, close } = await bffWithBudget(2);
      const post = (body: string, contentType = 'application/json') =>
        fetch(`${bff.api}/appointments/book`, { method: 'POST', headers: { 'content-type': contentType }, body });
      try {
        const refusals = [
          await post(JSON.stringify(validBooking({ patient_phone: 'not a phone', doctor_id: 2 }))),
          await post(JSON.stringify(validBooking({ website: 'https://spam.example', doctor_id: 2 }))),
          await post(JSON.stringify(validBooking({ appointment_date: 'tomorrow', doctor_id: 2 }))),
          await post('{"patient_name": '),
          await post(JSON.stringify(validBooking({ doctor_id: 2 })), 'text/plain'),
        ];
        expect(refusals.map((res) => res.status)).toEqual([400, 400, 400, 400, 415]);

        const booked = [
          await post(JSON.stringify(validBooking({ patient_name: 'After Refusals', doctor_id: 2, appointment_time: '14:00' }))),
          await post(JSON.stringify(validBooking({ patient_name: 'After Refusals', doctor_id: 2, appointment_time: '14:15' }))),
        ];

        expect(booked.map((res) => res.status)).toEqual([200, 200]);
        const third = await post(JSON.stringify(validBooking({ patient_name: 'After Refusals', doctor_id: 2, appointment_time: '14:30' })));
        expect(third.status).toBe(429);
        expect(ErrorBody.parse(await third.json()).error_code).toBe('rate_limited');
      } finally {
        await close();
      }
    },
  );
});

describe('the booking limit and a 504 booking_outcome_unknown', () => {
  const CREDENTIALS = { appKey: 'ck_hang_up_504', secret: 'hang-up-504-secret-0123456789' };

  it('counts a 504 without an Idempotency-Key (its re-send would book again), and gives back one with a key', async () => {
    // Bookings held at upstream until both BFFs have answered 504; the re-sends after pass at once.
    const calls = new HeldCalls();
    const stub = await startStubUpstream(async (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify({ access_token: 'stub-token-hang-up-504-0123456789', expires_in: 3600 }));
      if (req.url !== '/api/v1/appointments/book') return void res.end(JSON.stringify({ success: true, data: [] }));
      await calls.hold('booking');
      res.end(JSON.stringify({ success: true, message: 'Appointment booked successfully', data: { appointment_id: 51 } }));
    });
    const keyed = await startBff(stub.api, CREDENTIALS, { bookingTimeoutMs: 200, bookingRateLimit: { limit: 1, windowMs: 60_000 } });
    const keyless = await startBff(stub.api, CREDENTIALS, { bookingTimeoutMs: 200, bookingRateLimit: { limit: 1, windowMs: 60_000 } });
    const book = (bff: RunningBff, key?: string) =>
      fetch(`${bff.api}/appointments/book`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
        // No dentist: the stub lists none, and a booking naming one it does not list is refused before going upstream.
        body: JSON.stringify(validBooking()),
      });
    try {
      await expectError(await book(keyless), 504, 'booking_outcome_unknown');
      await expectError(await book(keyed, 'a-patient-key'), 504, 'booking_outcome_unknown');
      calls.release('booking');

      await expectError(await book(keyless, 'another-key'), 429, 'rate_limited');
      const resent = await book(keyed, 'a-patient-key');
      expect(resent.status).toBe(200);
      expect(await resent.json()).toMatchObject({ success: true, data: { reference: expect.any(String) } });
    } finally {
      await keyed.close();
      await keyless.close();
      await stub.close();
    }
  });
});
