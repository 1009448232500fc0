import { request, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire, still compressed if they were. */
  wire: Buffer;
  /** The body once decompressed. */
  body: Buffer;
}

/** node:http rather than fetch, which would decompress and hide the bytes on the wire. */
function send(url: string, encoding: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: { ...init.headers, 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(wire) : wire;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('compressed answers', () => {
  const ctx = useTestServer({
    setup: async (server) => ({ caller: await authenticatedCaller(server, await seedClinic(server)) }),
  });

  it('sends the Swagger UI bundle gzip-compressed to a client that accepts gzip, in far fewer bytes', async () => {
    const url = `${ctx.server.api}/docs/assets/swagger-ui-bundle.js`;

    const plain = await send(url, 'identity');
    const gzipped = await send(url, 'gzip');

    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gzipped.body.equals(plain.wire)).toBe(true);
    expect(plain.wire.length).toBeGreaterThan(1_000_000);
    expect(gzipped.wire.length).toBeLessThan(plain.wire.length / 3);
  });

  it('compresses the OpenAPI document without changing it', async () => {
    const plain = await send(`${ctx.server.api}/openapi.json`, 'identity');
    const gzipped = await send(`${ctx.server.api}/openapi.json`, 'gzip');

    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.wire.length).toBeLessThan(plain.wire.length);
    expect(JSON.parse(gzipped.body.toString())).toEqual(JSON.parse(plain.wire.toString()));
  });

  it('leaves a small JSON answer uncompressed', async () => {
    const res = await send(`${ctx.server.baseUrl}/healthz`, 'gzip');

    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.wire.toString())).toEqual({ status: 'ok' });
  });

  it.each([
    ['a booking', validBooking({ appointment_time: '11:30' }), 200],
    ['a booking without fields', {}, 400],
    ['a booking with a note over the limit', validBooking({ note: 'x'.repeat(5000), patient_phone: 'x' }), 400],
    // Its message names each of 60 unknown fields: a body over the threshold, so it is compressed.
    ['a booking with 60 unknown fields', validBooking(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`unknown_field_number_${i}`, i]))), 400],
  ])('answers %s with the same status and exact body whether or not the client accepts gzip', async (_name, booking, status) => {
    const book = (encoding: string, body: Record<string, unknown>) =>
      send(`${ctx.server.api}/appointments/book`, encoding, {
        method: 'POST',
        headers: { ...ctx.caller.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const plain = await book('identity', booking);
    const gzipped = await book('gzip', status === 200 ? { ...booking, appointment_time: '11:45' } : booking);

    expect([plain.status, gzipped.status]).toEqual([status, status]);
    expect(gzipped.headers['content-type']).toMatch(/^application\/json/);
    const [a, b] = [JSON.parse(plain.body.toString()) as Record<string, unknown>, JSON.parse(gzipped.body.toString()) as Record<string, unknown>];
    if (status === 200) {
      expect(Object.keys(b)).toEqual(Object.keys(a));
      expect(b.message).toBe(a.message);
    } else {
      expect(gzipped.body.toString()).toBe(plain.body.toString());
    }
    if (plain.body.length > 1024) expect(gzipped.headers['content-encoding']).toBe('gzip');
  });
});
