import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/use-test-server.js';

const READ = 'GET, HEAD, OPTIONS';
const WRITE = 'POST, OPTIONS';

describe('405 and OPTIONS on the known paths as the router spells them', () => {
  const ctx = useTestServer();

  const send = (method: string, path: string) => fetch(`${ctx.server.baseUrl}${path}`, { method });

  it.each([
    ['/API/V1/Treatments', READ],
    ['/api/v1/treatments/', READ],
    ['/api/v1/treatments/7/', READ],
    ['/api/v1/Appointments/Status/abc', READ],
    ['/api/v1/appointments/book/', WRITE],
    ['/HEALTHZ', READ],
    ['/assets/demo/team-1.jpg', READ],
  ])('OPTIONS %s answers 204 with Allow: %s', async (path, allow) => {
    const res = await send('OPTIONS', path);

    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe(allow);
  });

  it.each([
    ['PUT', '/API/V1/TREATMENTS/3', READ],
    ['DELETE', '/api/v1/granttoken/', WRITE],
  ])('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const res = await send(method, path);

    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
  });

  it.each([
    ['/api/v1/treatments//7'],
    ['/api/v1/treatments/7/x'],
    ['/api/v1/treatment'],
    ['/api/v1/openapi.jsonx'],
    ['/api/v1/openapiXjson'],
  ])('OPTIONS %s, not a known path, is not answered with Allow', async (path) => {
    const res = await send('OPTIONS', path);

    expect(res.status).not.toBe(204);
    expect(res.headers.get('allow')).toBeNull();
  });
});
