import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';

const ROUTE_NOT_FOUND = { success: false, message: 'Route not found', error_code: 'not_found' };
const JSON_TYPE = /^application\/json(;|$)/;

/** What a leaked stack trace would show: "    at fn (file:line:col)" lines, source paths, the working folder. */
function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/\bat\s+\S+\s+\(/);
  expect(text).not.toMatch(/\\n\s*at\s/);
  expect(text).not.toMatch(/\bat\s+(file:\/\/|\/|node:)/);
  expect(text).not.toMatch(/[\w/.-]+\.(ts|js|mjs):\d+/);
  expect(text).not.toContain('node_modules');
  expect(text).not.toContain(process.cwd());
}

describe('routing and the shape of every answer', () => {
  const ctx = useTestServer({
    setup: async (server) => ({ caller: await authenticatedCaller(server, await seedClinic(server)) }),
  });

  const send = (method: string, url: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });

  // A known path asked with another method is 405 (test/server/http/methods.test.ts).
  describe('unknown routes', () => {
    it.each([
      ['GET /api/v1/nope without credentials', () => send('GET', `${ctx.server.api}/nope`)],
      ['GET /nope outside the API', () => send('GET', `${ctx.server.baseUrl}/nope`)],
      ['GET /api/v1 itself', () => send('GET', ctx.server.api)],
      ['GET /api/v1/treatments/1/extra with valid credentials', () => send('GET', `${ctx.server.api}/treatments/1/extra`, ctx.caller.headers)],
      ['DELETE /api/v1/appointments/status/1/x with valid credentials', () => send('DELETE', `${ctx.server.api}/appointments/status/1/x`, ctx.caller.headers)],
      ['GET /api/v2/treatments, a version that does not exist', () => send('GET', `${ctx.server.baseUrl}/api/v2/treatments`, ctx.caller.headers)],
    ])('answer 404 with exactly the Route not found body for %s', async (_name, request) => {
      const res = await request();
      expect(res.status).toBe(404);
      expect(await res.json()).toStrictEqual(ROUTE_NOT_FOUND);
    });
  });

  describe('content type', () => {
    it.each([
      ['a 200 from GET /healthz', () => send('GET', `${ctx.server.baseUrl}/healthz`)],
      ['a 200 from GET /treatments', () => ctx.caller.get('/treatments')],
      ['a 200 from POST /appointments/book', () => ctx.caller.post('/appointments/book', validBooking())],
      ['a 400 for a booking without fields', () => ctx.caller.post('/appointments/book', {})],
      ['a 400 for malformed JSON', () => ctx.caller.post('/appointments/book', '{"patient_name":')],
      ['a 401 without credentials', () => send('GET', `${ctx.server.api}/dentists`)],
      ['a 401 from POST /granttoken with a wrong secret', () => send('POST', `${ctx.server.api}/granttoken`, { 'x-app-key': 'ck_unknown', 'x-app-secret-key': 'nope' })],
      ['a 404 for an unknown route', () => send('GET', `${ctx.server.api}/nope`)],
      ['a 404 for an unknown treatment', () => ctx.caller.get('/treatments/999999')],
      ['a 413 for a body over 16 KB', () => ctx.caller.post('/appointments/book', validBooking({ note: 'x'.repeat(17 * 1024) }))],
      ['a 415 for a booking sent as text/plain', () => ctx.caller.post('/appointments/book', JSON.stringify(validBooking()), { 'content-type': 'text/plain' })],
    ])('is application/json for %s', async (_name, request) => {
      const res = await request();
      expect(res.headers.get('content-type')).toMatch(JSON_TYPE);
      await expect(res.json()).resolves.toEqual(expect.any(Object));
    });
  });

  describe('error bodies', () => {
    it.each([
      ['a 400 for malformed JSON', () => ctx.caller.post('/appointments/book', '{"patient_name": "Jane", }'), 400],
      ['a 400 for a body that is a bare string', () => ctx.caller.post('/appointments/book', '"hello"'), 400],
      ['a 400 for fields of the wrong type', () => ctx.caller.post('/appointments/book', validBooking({ doctor_id: { $gt: 0 }, patient_name: ['x'] })), 400],
      ['a 401 for a garbage token', () => send('GET', `${ctx.server.api}/dentists`, { 'x-app-key': 'x', authorization: 'Bearer !!!' }), 401],
      ['a 404 for an unknown route', () => send('GET', `${ctx.server.api}/nope/../../etc/passwd`), 404],
      ['a 404 for a malformed id', () => ctx.caller.get('/appointments/status/%00'), 404],
      ['a 413 for a body over 16 KB', () => ctx.caller.post('/appointments/book', validBooking({ note: 'x'.repeat(17 * 1024) })), 413],
      ['a 415 for an unsupported content type', () => ctx.caller.post('/appointments/book', '<xml/>', { 'content-type': 'application/xml' }), 415],
    ])('hold no stack trace or file path for %s', async (_name, request, status) => {
      const res = await request();
      expect(res.status).toBe(status);
      const text = await res.text();
      expect(ErrorBody.parse(JSON.parse(text))).toEqual(JSON.parse(text));
      expectNoStackTrace(text);
    });
  });

  describe('GET /healthz', () => {
    it('answers 200 with exactly {status: "ok"} and needs no credentials', async () => {
      const res = await send('GET', `${ctx.server.baseUrl}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toStrictEqual({ status: 'ok' });
    });
  });
});

describe('an unexpected server error', () => {
  const ctx = useTestServer({
    setup: async (server) => {
      const caller = await authenticatedCaller(server, await seedClinic(server));
      // A table gone from under the running server: the store's query throws a plain database error.
      // (Renamed rather than dropped: PostgreSQL refuses to drop a table other tables' keys reference.)
      await server.db.schema.alterTable('dentists').renameTo('dentists_gone').execute();
      return { caller };
    },
  });

  it('answers 500 internal_error as JSON with a generic message and no stack trace', async () => {
    const res = await ctx.caller.get('/dentists');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(JSON_TYPE);
    const text = await res.text();
    expect(JSON.parse(text)).toStrictEqual({ success: false, message: 'Internal server error', error_code: 'internal_error' });
    expectNoStackTrace(text);
    expect(text).not.toMatch(/dentists|sqlite|postgres|no such table|does not exist/i);
  });

  it('logs the error with its stack on the server side only', async () => {
    await ctx.caller.get('/dentists');
    const logged = ctx.server.logs.filter((line) => line.includes('unhandled error'));
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).toMatch(/no such table: dentists|relation \\"dentists\\" does not exist/); // SQLite's words, PostgreSQL's (JSON-escaped)
  });
});
