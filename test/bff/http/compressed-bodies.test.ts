import { randomUUID } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { validBooking } from '../../server/support/test-server.js';
import { startStack } from '../support/bff-harness.js';

const COMPRESS: Record<string, (body: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

const plainJson = () => Buffer.from(JSON.stringify(validBooking()));

/** A valid compressed booking cut in half: the stream ends too soon. */
function truncated(encoding: string): Buffer {
  const whole = COMPRESS[encoding]!(Buffer.from(JSON.stringify(validBooking({ note: 'n'.repeat(400) }))));
  return whole.subarray(0, Math.floor(whole.length / 2));
}

interface LogLine {
  level: number;
}

describe('POST /api/appointments/book with a Content-Encoding', async () => {

  const stack = await startStack();

  const send = (encoding: string, body: Buffer, requestId = randomUUID()) =>
    fetch(`${stack.bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding, 'x-request-id': requestId },
      body,
    });

  it.each([
    ['gzip', 'plain JSON', plainJson],
    ['deflate', 'plain JSON', plainJson],
    ['br', 'plain JSON', plainJson],
    ['gzip', 'a valid stream cut in half', () => truncated('gzip')],
    ['deflate', 'a valid stream cut in half', () => truncated('deflate')],
    ['br', 'a valid stream cut in half', () => truncated('br')],
  ])('answers 400 validation_error for a %s body that is %s, logged at warn without a stack, asking nothing upstream', async (encoding, _what, body) => {
    const requestId = randomUUID();
    const upstreamBefore = stack.upstreamHits('/appointments/book');

    const res = await send(encoding, body(), requestId);

    expect(res.status).toBe(400);
    expect(ErrorBody.parse(await res.json())).toEqual({ success: false, message: expect.stringContaining(encoding), error_code: 'validation_error' });
    const lines = stack.bff.logs.filter((line) => line.includes(requestId));
    expect(lines.length).toBeGreaterThan(0);
    expect(Math.max(...lines.map((line) => (JSON.parse(line) as LogLine).level))).toBe(40);
    for (const line of lines) expect(line).not.toMatch(/stack|\bat\s+\S+\s+\(/);
    expect(stack.upstreamHits('/appointments/book')).toBe(upstreamBefore);
  });

  it('books a valid gzip body', async () => {
    const res = await send('gzip', gzipSync(Buffer.from(JSON.stringify(validBooking({ appointment_time: '15:00' })))));

    expect(res.status).toBe(200);
  });

  it('answers 415 unsupported_media_type for an encoding it does not know', async () => {
    const res = await send('compress', plainJson());

    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ success: false, message: expect.stringContaining('Content-Encoding'), error_code: 'unsupported_media_type' });
  });
});
