import { randomUUID } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { BookAppointmentResponse } from '../../../contract/index.js';

const COMPRESS: Record<string, (body: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

/** What each request body is: not compressed at all, or compressed data cut short. */
const CORRUPT: [string, string, (encoding: string) => Buffer][] = [
  ['gzip', 'plain JSON', () => Buffer.from(JSON.stringify(validBooking()))],
  ['deflate', 'plain JSON', () => Buffer.from(JSON.stringify(validBooking()))],
  ['br', 'plain JSON', () => Buffer.from(JSON.stringify(validBooking()))],
  ['gzip', 'random bytes after a valid gzip header', () => Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]), Buffer.alloc(64, 0xff)])],
  ['gzip', 'a valid stream cut in half', (encoding) => truncated(encoding)],
  ['deflate', 'a valid stream cut in half', (encoding) => truncated(encoding)],
  ['br', 'a valid stream cut in half', (encoding) => truncated(encoding)],
];

function truncated(encoding: string): Buffer {
  const whole = COMPRESS[encoding]!(Buffer.from(JSON.stringify(validBooking({ note: 'n'.repeat(400) }))));
  return whole.subarray(0, Math.floor(whole.length / 2));
}

interface LogLine {
  level: number;
  msg: string;
  req?: { id?: string };
  err?: { stack?: string };
}

/** The log lines of one request, found by the X-Request-Id it was sent with. */
const linesOf = (logs: string[], requestId: string) =>
  logs.filter((line) => line.includes(requestId)).map((line) => JSON.parse(line) as LogLine);

describe('POST /api/v1/appointments/book with a Content-Encoding', () => {
  const ctx = useTestServer({
    setup: async (server) => ({ caller: await authenticatedCaller(server, await seedClinic(server)) }),
  });

  const send = (encoding: string, body: Buffer, requestId = randomUUID()) =>
    fetch(`${ctx.server.api}/appointments/book`, {
      method: 'POST',
      headers: { ...ctx.caller.headers, 'content-type': 'application/json', 'content-encoding': encoding, 'x-request-id': requestId },
      body,
    });

  it.each(Object.keys(COMPRESS))('books a valid %s body', async (encoding) => {
    const res = await send(encoding, COMPRESS[encoding]!(Buffer.from(JSON.stringify(validBooking({ appointment_time: '14:00' })))));
    expect(res.status).toBe(200);
    expect(BookAppointmentResponse.parse(await res.json()).data.appointment_id).toBeGreaterThan(0);
  });

  it.each(CORRUPT)('answers 400 validation_error for a %s body that is %s, logged at warn without a stack', async (encoding, _what, body) => {
    const requestId = randomUUID();

    const res = await send(encoding, body(encoding), requestId);

    expect(res.status).toBe(400);
    const answer = ErrorBody.parse(await res.json());
    expect(answer).toEqual({ success: false, message: expect.stringContaining(encoding), error_code: 'validation_error' });
    const lines = linesOf(ctx.server.logs, requestId);
    expect(lines.length).toBeGreaterThan(0);
    expect(Math.max(...lines.map((line) => line.level))).toBe(40);
    for (const line of lines) expect(JSON.stringify(line)).not.toMatch(/stack|\bat\s+\S+\s+\(/);
  });

  it('answers 415 unsupported_media_type for an encoding it does not know', async () => {
    const res = await send('compress', Buffer.from(JSON.stringify(validBooking())));

    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ success: false, message: expect.stringContaining('Content-Encoding'), error_code: 'unsupported_media_type' });
  });
});
