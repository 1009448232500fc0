import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createReference } from '../../../bff/booking/booking-reference.js';
import { validBooking } from '../../server/support/test-server.js';
import { startBff, startStack, startStubUpstream, type RunningBff, type StubUpstream } from '../support/bff-harness.js';

/** One answer the browser saw: everything a page script or a proxy could read. */
interface Seen {
  what: string;
  status: number;
  headers: [string, string][];
  body: string;
}

const PATIENT = { name: 'Zelda Quasimodo', phone: '+44 7700 900987' };
const STUB_TOKEN = 'stub-token-secrets-fedcba9876543210';
const STUB_CREDENTIALS = { appKey: 'ck_secrets_stub', secret: 'stub-app-secret-never-shown-0123456789' };

const BffBooked = z.object({ data: z.object({ reference: z.string() }) });

let stub: StubUpstream;
let stubBff: RunningBff;
let refusingStub: StubUpstream;
let refusedBff: RunningBff;
const seen: Seen[] = [];
/** The access token the BFF sends upstream, read after the session. */
let realToken: string;

async function call(bff: RunningBff, what: string, path: string, init: RequestInit = {}): Promise<Seen> {
  const res = await fetch(`${bff.baseUrl}${path}`, init);
  const answer = { what, status: res.status, headers: [...res.headers.entries()], body: await res.text() };
  seen.push(answer);
  return answer;
}

const postJson = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: 'https://clinic.example', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** A realistic browser session against the real stack: every route, good and bad. */
async function realSession(bff: RunningBff): Promise<void> {
  const origin = { headers: { origin: 'https://clinic.example' } };
  await call(bff, 'organization', '/api/organization', origin);
  await call(bff, 'website', '/api/website', origin);
  const treatments = await call(bff, 'treatments', '/api/treatments', origin);
  const firstId = (JSON.parse(treatments.body) as { data: { treatment_id: number }[] }).data[0]!.treatment_id;
  await call(bff, 'treatment', `/api/treatments/${firstId}`, origin);
  await call(bff, 'unknown treatment', '/api/treatments/999999', origin);
  await call(bff, 'dentists', '/api/dentists', origin);
  await call(bff, 'dentists again, conditional', '/api/dentists', { headers: { 'if-none-match': '"nope"' } });
  const booking = await call(
    bff,
    'booking',
    '/api/appointments/book',
    postJson(validBooking({ patient_name: PATIENT.name, patient_phone: PATIENT.phone }), { 'idempotency-key': 'session-key-1' }),
  );
  expect(booking.status).toBe(200);
  const { reference } = BffBooked.parse(JSON.parse(booking.body)).data;
  await call(bff, 'status', `/api/appointments/status/${reference}`, origin);
  await call(bff, 'made-up status', `/api/appointments/status/${'A'.repeat(54)}`, origin);
  await call(bff, 'bad booking', '/api/appointments/book', postJson(validBooking({ patient_name: PATIENT.name, patient_phone: PATIENT.phone, appointment_date: 'soon' })));
  await call(bff, 'booking a closed day', '/api/appointments/book', postJson(validBooking({ patient_name: PATIENT.name, appointment_date: '2026-11-29' })));
  await call(bff, 'malformed booking', '/api/appointments/book', postJson(`{"patient_name":"${PATIENT.name}","patient_phone":"${PATIENT.phone}",`));
  await call(bff, 'honeypot booking', '/api/appointments/book', postJson(validBooking({ patient_name: PATIENT.name, website: 'spam' })));
  await call(bff, 'text booking', '/api/appointments/book', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: PATIENT.name });
  await call(bff, 'unknown path', '/api/granttoken', { method: 'POST' });
  await call(bff, 'unknown api path', '/api/nope');
  await call(bff, 'preflight', '/api/appointments/book', {
    method: 'OPTIONS',
    headers: { origin: 'https://clinic.example', 'access-control-request-method': 'POST' },
  });
  await call(bff, 'health', '/healthz');
  await call(bff, 'ready', '/readyz');
  await call(bff, 'demo page', '/');
  await call(bff, 'widget', '/widget/clinic-booking.js');
}

const stack = await startStack({ bff: { demoPage: true } });
beforeAll(async () => {
  await realSession(stack.bff);
  realToken = await stack.bff.tokens.get();

  // An upstream that grants a token, then fails every call with a 500 that echoes what it was sent.
  stub = await startStubUpstream((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/v1/granttoken') return void res.end(JSON.stringify({ access_token: STUB_TOKEN, expires_in: 3600 }));
    res.statusCode = 500;
    res.end(JSON.stringify({ success: false, message: `failed with ${JSON.stringify(req.headers)}`, error_code: 'internal_error' }));
  });
  stubBff = await startBff(stub.api, STUB_CREDENTIALS);
  expect((await call(stubBff, '502 content', '/api/website')).status).toBe(502);
  expect((await call(stubBff, '502 booking', '/api/appointments/book', postJson(validBooking({ patient_name: PATIENT.name })))).status).toBe(502);
  const reference = createReference(5, stubBff.config.referenceKey);
  expect((await call(stubBff, '502 status', `/api/appointments/status/${reference}`)).status).toBe(502);
  await call(stubBff, 'ready with a failing upstream', '/readyz');

  // An upstream that refuses the BFF's credentials.
  refusingStub = await startStubUpstream((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.statusCode = 401;
    res.end(JSON.stringify({ success: false, message: `Invalid API key ${req.headers['x-app-secret-key'] ?? ''}`, error_code: 'auth_failed' }));
  });
  refusedBff = await startBff(refusingStub.api, STUB_CREDENTIALS);
  expect((await call(refusedBff, 'refused content', '/api/treatments')).status).toBe(502);
  await call(refusedBff, 'refused readiness', '/readyz');
});
afterAll(async () => {
  await refusedBff.close();
  await refusingStub.close();
  await stubBff.close();
  await stub.close();
});

const SECRET_NAMES = ['the app secret', 'the access token', 'the stub app secret', 'the stub access token'] as const;

function secretValue(name: (typeof SECRET_NAMES)[number]): string {
  return {
    'the app secret': stack.clinic.secret,
    'the access token': realToken,
    'the stub app secret': STUB_CREDENTIALS.secret,
    'the stub access token': STUB_TOKEN,
  }[name];
}

describe('secrets never leave the BFF', () => {
  it('the session really exercised the credentials upstream', () => {
    expect(realToken.length).toBeGreaterThan(20);
    expect(stack.upstreamHits('/granttoken')).toBeGreaterThanOrEqual(1);
    expect(stub.requests.some((r) => r.headers.authorization === `Bearer ${STUB_TOKEN}`)).toBe(true);
    expect(seen.map((s) => s.status)).toEqual(expect.arrayContaining([200, 204, 400, 404, 415, 502]));
  });

  it.each(SECRET_NAMES)('no response body contains %s', (name) => {
    const value = secretValue(name);
    for (const answer of seen) expect(answer.body.includes(value), `${name} in the body of ${answer.what}`).toBe(false);
  });

  it.each(SECRET_NAMES)('no response header name or value contains %s', (name) => {
    const value = secretValue(name);
    for (const answer of seen) {
      for (const [header, headerValue] of answer.headers) {
        expect(`${header}: ${headerValue}`.includes(value), `${name} in ${header} of ${answer.what}`).toBe(false);
      }
    }
  });

  it('no BFF log line contains an app secret or an access token', () => {
    const logs = [...stack.bff.logs, ...stubBff.logs, ...refusedBff.logs];
    expect(logs.length).toBeGreaterThan(seen.length - 1);
    for (const name of SECRET_NAMES) {
      for (const line of logs) expect(line.includes(secretValue(name)), `${name} in log line ${line}`).toBe(false);
    }
  });

  it("no BFF log line contains the patient's name or phone number", () => {
    const logs = [...stack.bff.logs, ...stubBff.logs, ...refusedBff.logs];
    const needles = [PATIENT.name, 'Zelda', 'Quasimodo', PATIENT.phone, '7700 900987', '7700900987', '900987'];
    for (const needle of needles) {
      for (const line of logs) expect(line.includes(needle), `${needle} in log line ${line}`).toBe(false);
    }
  });

  it("nothing of the upstream's own error bodies reaches the browser", () => {
    for (const answer of seen.filter((s) => s.status === 502)) {
      expect(answer.body).not.toContain('x-app-key');
      expect(answer.body).not.toContain('Bearer');
      expect(answer.body).not.toContain(STUB_CREDENTIALS.appKey);
    }
  });
});
