import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorBody } from '../../../contract/index.js';
import { validBooking } from '../../server/support/test-server.js';
import { startBff, startStubUpstream, type StubHandler } from '../support/bff-harness.js';

const STUB_TOKEN = 'stub-token-closed-paths-0123456789';
const CREDENTIALS = { appKey: 'ck_closed_paths', secret: 'closed-paths-app-secret-0123456789' };

/** Every request the BFF may ever make upstream: method and path under /api/v1. */
const ALLOWED_UPSTREAM = [
  /^POST \/api\/v1\/granttoken$/,
  /^GET \/api\/v1\/(organization|website|treatments|dentists)$/,
  /^GET \/api\/v1\/treatments\/\d+$/,
  /^POST \/api\/v1\/appointments\/book$/,
  /^GET \/api\/v1\/appointments\/status\/\d+$/,
];

/** The BFF's booking answer: a reference in place of the upstream's id. */
const BffBooked = z.object({ data: z.object({ reference: z.string() }) });

/** A stub that answers each allowed upstream path with a body that matches the contract. */
const contractStub: StubHandler = (req, res) => {
  res.setHeader('content-type', 'application/json');
  const json = (body: unknown): void => void res.end(JSON.stringify(body));
  if (req.url === '/api/v1/granttoken') return json({ access_token: STUB_TOKEN, expires_in: 3600 });
  if (req.url === '/api/v1/appointments/book') {
    return json({ success: true, message: 'Appointment booked successfully', data: { appointment_id: 41 } });
  }
  if (req.url === '/api/v1/appointments/status/41') {
    return json({ success: true, message: 'ok', data: { status: 'Scheduled', name: 'Jane Doe', date: '2026-11-24', time: '10:00' } });
  }
  if (req.url === '/api/v1/treatments' || req.url === '/api/v1/dentists') return json({ success: true, data: [] });
  res.statusCode = 404;
  json({ success: false, message: 'Route not found', error_code: 'not_found' });
};

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Sends the path byte for byte: fetch() would resolve %2e%2e and dot segments
 * before sending, which is exactly the trick under test.
 */
function raw(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const framing = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest({ host: hostname, port, method, path, headers: { ...headers, ...framing } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const stub = await startStubUpstream(contractStub);
const bff = await startBff(stub.api, CREDENTIALS);

const upstreamLines = () => stub.requests.map((r) => `${r.method} ${r.url}`);

describe('paths the BFF does not expose', () => {
  const closed: [method: string, path: string][] = [
    ['GET', '/api/granttoken'],
    ['POST', '/api/granttoken'],
    ['GET', '/api/nope'],
    ['GET', '/api/v1/treatments'],
    ['GET', '/api/v1/granttoken'],
    ['GET', '/api/treatments/..%2Fgranttoken'],
    ['GET', '/api/treatments/%2e%2e'],
    ['GET', '/api/treatments/%2e%2e/%2e%2e/granttoken'],
    ['GET', '/api/treatments/1%2F..%2F..%2Fgranttoken'],
    ['GET', '/api/treatments/../granttoken'],
    ['GET', '/api/treatments/1;x'],
    ['GET', '/api/appointments/status/'],
    ['GET', '/api/appointments/status/..%2F..%2Fgranttoken'],
    ['GET', '/api/appointments/book'],
    ['POST', '/api/treatments'],
    ['PUT', '/api/appointments/book'],
    ['DELETE', '/api/treatments/1'],
  ];

  it.each(closed)('%s %s answers 404 with the spec error body and reaches nothing upstream', async (method, path) => {
    // A legitimate call first, so the token is already exchanged and cached content exists.
    expect((await raw(bff.baseUrl, 'GET', '/api/treatments')).status).toBe(200);
    const before = stub.requests.length;

    const res = await raw(bff.baseUrl, method, path, { 'content-type': 'application/json' }, method === 'GET' ? undefined : '{}');

    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = ErrorBody.parse(JSON.parse(res.body));
    expect(body).toEqual({ success: false, message: expect.any(String), error_code: 'not_found' });
    expect(stub.requests.length).toBe(before);
  });

  it('never sends upstream any request outside the allowed operations, whatever was asked', () => {
    // Runs after the table above: everything the stub ever saw.
    expect(upstreamLines().length).toBeGreaterThan(0);
    for (const line of upstreamLines()) expect(ALLOWED_UPSTREAM.some((allowed) => allowed.test(line)), line).toBe(true);
  });

  it('exchanges a token only once for all those requests', () => {
    expect(upstreamLines().filter((line) => line.endsWith('/granttoken'))).toEqual(['POST /api/v1/granttoken']);
  });
});

describe('browser credentials', () => {
  const browserHeaders = { cookie: 'session=browser-cookie-value', authorization: 'Bearer browser-token-value' };

  it('are not forwarded on a content request: upstream sees the BFF token and no cookie', async () => {
    const before = stub.requests.length;

    const res = await fetch(`${bff.api}/dentists`, { headers: browserHeaders });

    expect(res.status).toBe(200);
    const forwarded = stub.requests.slice(before).find((r) => r.url === '/api/v1/dentists');
    expect(forwarded).toBeDefined();
    expect(forwarded!.headers.authorization).toBe(`Bearer ${STUB_TOKEN}`);
    expect(forwarded!.headers.cookie).toBeUndefined();
    expect(forwarded!.headers['x-app-key']).toBe(CREDENTIALS.appKey);
  });

  it('are not forwarded on a booking: upstream sees the BFF token and no cookie', async () => {
    const before = stub.requests.length;

    const res = await fetch(`${bff.api}/appointments/book`, {
      method: 'POST',
      headers: { ...browserHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(validBooking()),
    });

    expect(res.status).toBe(200);
    const forwarded = stub.requests.slice(before).find((r) => r.url === '/api/v1/appointments/book');
    expect(forwarded).toBeDefined();
    expect(forwarded!.headers.authorization).toBe(`Bearer ${STUB_TOKEN}`);
    expect(forwarded!.headers.cookie).toBeUndefined();
  });

  it('are not forwarded on a status lookup: upstream sees the BFF token and no cookie', async () => {
    const booked = await fetch(`${bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBooking({ appointment_time: '11:00' })),
    });
    const { reference } = BffBooked.parse(await booked.json()).data;
    const before = stub.requests.length;

    const res = await fetch(`${bff.api}/appointments/status/${reference}`, { headers: browserHeaders });

    expect(res.status).toBe(200);
    const forwarded = stub.requests.slice(before).find((r) => r.url === '/api/v1/appointments/status/41');
    expect(forwarded).toBeDefined();
    expect(forwarded!.headers.authorization).toBe(`Bearer ${STUB_TOKEN}`);
    expect(forwarded!.headers.cookie).toBeUndefined();
  });

  it('never appear in any request the BFF sent upstream', () => {
    for (const recorded of stub.requests) {
      const text = JSON.stringify(recorded.headers) + recorded.body;
      expect(text).not.toContain('browser-cookie-value');
      expect(text).not.toContain('browser-token-value');
    }
  });
});
