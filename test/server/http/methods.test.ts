import { describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { authenticatedCaller, seedClinic, validBooking } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { expectError } from '../../support/expect-error.js';

const READ = 'GET, HEAD, OPTIONS';
const WRITE = 'POST, OPTIONS';

describe('methods of the known paths', () => {
  const ctx = useTestServer({
    setup: async (server) => ({ caller: await authenticatedCaller(server, await seedClinic(server)) }),
  });

  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${ctx.server.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });

  describe('a method the path does not take', () => {
    it.each([
      ['POST', '/api/v1/treatments', READ],
      ['PATCH', '/api/v1/treatments/1', READ],
      ['DELETE', '/api/v1/appointments/status/1', READ],
      ['PUT', '/api/v1/appointments/book', WRITE],
      ['GET', '/api/v1/granttoken', WRITE],
      ['DELETE', '/api/v1/organization', READ],
      ['POST', '/api/v1/openapi.json', READ],
      ['POST', '/healthz', READ],
    ])('%s %s answers 405 method_not_allowed with Allow: %s, with valid credentials', async (method, path, allow) => {
      const res = await send(method, path, { ...ctx.caller.headers, 'content-type': 'application/json' }, method === 'GET' ? undefined : JSON.stringify(validBooking()));

      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      const body = ErrorBody.parse(await res.json());
      expect(body).toEqual({ success: false, message: expect.stringContaining(method), error_code: 'method_not_allowed' });
      expect(body.message).toContain(allow);
    });

    it('answers 405 before credentials are checked: the methods of each path are public in the OpenAPI document', async () => {
      const res = await send('POST', '/api/v1/treatments');

      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(READ);
      expect(await res.json()).toMatchObject({ success: false, error_code: 'method_not_allowed' });
    });
  });

  describe('OPTIONS', () => {
    it.each([
      ['/api/v1/treatments', READ],
      ['/api/v1/treatments/1', READ],
      ['/api/v1/appointments/book', WRITE],
      ['/api/v1/appointments/status/7', READ],
      ['/api/v1/granttoken', WRITE],
      ['/api/v1/docs', READ],
    ])('on %s answers 204 with Allow: %s and no body, without credentials', async (path, allow) => {
      const res = await send('OPTIONS', path);

      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe(allow);
      expect(await res.text()).toBe('');
    });
  });

  describe('what stays as it was', () => {
    it.each([
      ['GET', '/api/v1/treatments', 200],
      ['HEAD', '/api/v1/treatments', 200],
      ['POST', '/api/v1/appointments/book', 200],
    ])('%s %s with valid credentials answers %i with its success body (none to HEAD)', async (method, path, status) => {
      const res = await send(method, path, { ...ctx.caller.headers, 'content-type': 'application/json' }, method === 'POST' ? JSON.stringify(validBooking({ appointment_time: '16:00' })) : undefined);

      expect(res.status).toBe(status);
      if (method === 'HEAD') expect(await res.text()).toBe('');
      else expect(await res.json()).toMatchObject({ success: true, data: expect.any(Object) });
    });

    it.each([
      ['DELETE', '/api/v1/nope'],
      ['OPTIONS', '/api/v1/nope'],
      ['OPTIONS', '/nope'],
    ])('%s %s, a path that does not exist, answers 404', async (method, path) => {
      const res = await send(method, path, ctx.caller.headers);

      await expectError(res, 404, 'not_found');
      expect(res.headers.get('allow')).toBeNull();
    });

    it('GET /api/v1/treatments/1/extra, no known path, is still 401 without credentials and 404 with them', async () => {
      await expectError(await send('GET', '/api/v1/treatments/1/extra'), 401, 'auth_failed');
      await expectError(await send('GET', '/api/v1/treatments/1/extra', ctx.caller.headers), 404, 'not_found');
    });
  });
});
