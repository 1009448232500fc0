import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBody, TreatmentListResponse } from '../../../contract/index.js';
import { loadBffConfig } from '../../../bff/config.js';
import { startBff, startStubUpstream, type RecordedRequest, type RunningBff, type StubUpstream } from '../support/bff-harness.js';

const CREDENTIALS = { appKey: 'ck_bounded_stub', secret: 'bounded-stub-secret-0123456789' };
const TOKEN = { access_token: 'stub-token-bounded-0123456789abcdef', expires_in: 3600 };
const MiB = 1024 * 1024;

/** How much of its body the stub managed to hand to the socket before it closed. */
interface Streamed {
  written: number;
  closedEarly: boolean;
}

/**
 * Streams a `total`-byte JSON body, `{"success":true,"data":"xxx…"}`, made on
 * the fly in 64 KiB chunks with back-pressure, so neither side of the test
 * ever holds it whole; stops when the BFF closes the socket.
 */
async function streamHugeJson(res: ServerResponse, total: number, declareLength: boolean): Promise<Streamed> {
  const head = '{"success":true,"data":"';
  const tail = '"}';
  const chunk = Buffer.alloc(64 * 1024, 'x');
  res.statusCode = 200;
  res.setHeader('content-type', 'application/json');
  if (declareLength) res.setHeader('content-length', String(total));
  let closed = false;
  res.on('close', () => (closed = true));
  let written = 0;
  const drainedOrClosed = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done).off('close', done);
        resolve();
      };
      res.on('drain', done).on('close', done);
    });
  const write = async (bytes: Buffer | string) => {
    if (closed) return;
    written += Buffer.byteLength(bytes);
    if (!res.write(bytes)) await drainedOrClosed();
  };
  await write(head);
  while (!closed && written + chunk.length + tail.length <= total) await write(chunk);
  if (!closed) await write('x'.repeat(total - written - tail.length));
  await write(tail);
  if (!closed) res.end();
  else res.destroy();
  return { written, closedEarly: closed && written < total };
}

const expectUnavailable = async (res: Response) => {
  expect(res.status).toBe(502);
  const body = ErrorBody.parse(await res.json());
  expect(body.error_code).toBe('upstream_unavailable');
  return body;
};

describe('an upstream answer over UPSTREAM_MAX_BODY_BYTES', () => {
  // Large enough that reading it whole would grow RSS by well over 100 MiB (a string and its parse),
  // far past the bound below, which leaves room for garbage-collection timing on a busy machine.
  const HUGE = 64 * MiB;
  let stub: StubUpstream;
  let bff: RunningBff;
  let streamed: Promise<Streamed> | undefined;
  let answer: (req: RecordedRequest, res: ServerResponse) => void;

  // A BFF of each test's own: nothing another test's answer put in its cache.
  beforeEach(async () => {
    stub = await startStubUpstream((req, res) => {
      if (req.url === '/api/v1/granttoken') {
        res.setHeader('content-type', 'application/json');
        return void res.end(JSON.stringify(TOKEN));
      }
      answer(req, res);
    });
    bff = await startBff(stub.api, CREDENTIALS, { upstreamMaxBodyBytes: MiB, upstreamTimeoutMs: 10_000 });
  });
  afterEach(async () => {
    await bff.close();
    await stub.close();
  });

  it('answers 502 upstream_unavailable and closes the connection long before the 64 MiB streamed body ends', async () => {
    // Warm up first (token, code paths), so the RSS compared is this request's alone.
    answer = (_req, res) => void streamHugeJson(res, 2 * MiB, false);
    await (await fetch(`${bff.api}/organization`)).text();
    answer = (_req, res) => void (streamed = streamHugeJson(res, HUGE, false));
    const rssBefore = process.memoryUsage().rss;

    const res = await fetch(`${bff.api}/treatments`);

    await expectUnavailable(res);
    const { written, closedEarly } = await streamed!;
    expect(closedEarly).toBe(true);
    // The cap, plus what the loopback socket buffers held when the BFF hung up.
    expect(written).toBeLessThan(HUGE / 2);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(32 * MiB);
  });

  it('refuses an answer whose Content-Length is over the cap without reading it', async () => {
    answer = (_req, res) => void (streamed = streamHugeJson(res, HUGE, true));

    await expectUnavailable(await fetch(`${bff.api}/dentists`));

    const { closedEarly, written } = await streamed!;
    expect(closedEarly).toBe(true);
    expect(written).toBeLessThan(HUGE / 2);
  });

  it('refuses an over-long booking answer as 502 too, never passing any of it on', async () => {
    answer = (_req, res) => void (streamed = streamHugeJson(res, 4 * MiB, false));

    const res = await fetch(`${bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ patient_name: 'Jane Doe', patient_phone: '+44 7700 900123', appointment_date: '2026-11-24', appointment_time: '10:00' }),
    });

    const text = JSON.stringify(await expectUnavailable(res));
    expect(text).not.toContain('xxxx');
  });

  it('still reads an answer just under the cap', async () => {
    const treatment = { treatment_id: 1, treatment_name: 'Check-up', description: '', base_fee: '60.00', duration_minutes: 30, image_url: '' };
    const list = { success: true, data: [treatment] };
    const padding = MiB - JSON.stringify(list).length - 10;
    answer = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      // Whitespace pads the JSON to just under 1 MiB without changing its value.
      res.end(`${' '.repeat(padding)}${JSON.stringify(list)}`);
    };

    const res = await fetch(`${bff.api}/treatments`);

    expect(res.status).toBe(200);
    expect(TreatmentListResponse.parse(await res.json()).data).toHaveLength(1);
  });
});

describe('UPSTREAM_MAX_BODY_BYTES and BOOKING_TIMEOUT_MS', () => {
  const env = { UPSTREAM_URL: 'http://127.0.0.1:4000/api/v1', APP_KEY: 'ck_x', APP_SECRET_KEY: 'secret-0123456789', BOOKING_REF_SECRET: 'x'.repeat(32) };

  it('default to 1 MiB and 15 s', () => {
    const config = loadBffConfig({ ...env }, '/nonexistent/.env');

    expect(config.upstreamMaxBodyBytes).toBe(MiB);
    expect(config.bookingTimeoutMs).toBe(15_000);
  });

  it('are read from the environment', () => {
    const config = loadBffConfig({ ...env, UPSTREAM_MAX_BODY_BYTES: '65536', BOOKING_TIMEOUT_MS: '20000' }, '/nonexistent/.env');

    expect(config.upstreamMaxBodyBytes).toBe(65_536);
    expect(config.bookingTimeoutMs).toBe(20_000);
  });

  it.each(['UPSTREAM_MAX_BODY_BYTES', 'BOOKING_TIMEOUT_MS'])('refuse a %s that is not a positive integer, naming it', (name) => {
    expect(() => loadBffConfig({ ...env, [name]: 'lots' }, '/nonexistent/.env')).toThrow(name);
  });
});
