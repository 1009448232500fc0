import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../contract/index.js';
import { validBooking } from '../../server/support/test-server.js';
import { startBff, startStubUpstream, type RunningBff, type StubHandler } from '../support/bff-harness.js';
import { eventually } from '../../support/eventually.js';

/**
 * No upstream call follows a redirect: an upstream (or whatever answers in its
 * place) that points the token exchange, a read, a booking or the readiness
 * probe elsewhere gets nothing sent there. A second server stands where the
 * redirects point and records anything that reaches it; the browser gets 502
 * upstream_unavailable, and the log says which status came, never where it
 * pointed.
 */

const CREDENTIALS = { appKey: 'ck_redirects', secret: 'redirects-secret-0123456789' };
const TOKEN = JSON.stringify({ access_token: 'stub-token-redirects-0123456789', expires_in: 3600 });
const REDIRECTS = [301, 302, 307, 308] as const;

let bff: RunningBff | undefined;

const upstream = await startStubUpstream();
/** Where every redirect points: it must never be asked anything. */
const elsewhere = await startStubUpstream();
afterEach(async () => {
  await bff?.close();
  bff = undefined;
  upstream.requests.length = 0;
});

/** Answers `status` pointing at the recording server for requests to `redirected`; the token and everything else as usual. */
const redirecting = (status: number, redirected: (url: string) => boolean): StubHandler => (req, res) => {
  if (redirected(req.url)) {
    res.writeHead(status, { location: `${elsewhere.api}${req.url.replace(/^\/api\/v1/, '')}`, 'content-type': 'text/plain' });
    return void res.end('moved');
  }
  res.setHeader('content-type', 'application/json');
  if (req.url === '/api/v1/granttoken') return void res.end(TOKEN);
  res.end(JSON.stringify({ success: true, data: [] }));
};

async function expectUnavailable(res: Response): Promise<void> {
  expect(res.status).toBe(502);
  expect(ErrorBody.parse(await res.json()).error_code).toBe('upstream_unavailable');
}

/** The warning the BFF logged for the redirect: its status, and nothing of where it pointed. */
async function expectRedirectLogged(running: RunningBff, status: number): Promise<void> {
  await eventually(() => expect(running.logs.some((line) => line.includes('"upstream":"redirect"'))).toBe(true));
  const warning = running.logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.status === status && line.upstream === 'redirect');
  expect(warning).toMatchObject({ level: 40, status, upstream: 'redirect' });
  const elsewherePort = new URL(elsewhere.api).port;
  for (const line of running.logs) {
    expect(line).not.toContain(elsewherePort);
    expect(line.toLowerCase()).not.toContain('location');
  }
}

describe.each(REDIRECTS)('an upstream answering %d', (status) => {
  it('to the token exchange: 502, and the app secret goes nowhere else', async () => {
    upstream.handle(redirecting(status, (url) => url === '/api/v1/granttoken'));
    bff = await startBff(upstream.api, CREDENTIALS);

    await expectUnavailable(await fetch(`${bff.api}/organization`));

    expect(upstream.requests.map((req) => req.url)).toEqual(['/api/v1/granttoken']);
    expect(elsewhere.requests).toEqual([]);
    await expectRedirectLogged(bff, status);
  });

  it('to a read: 502, and the token goes nowhere else', async () => {
    upstream.handle(redirecting(status, (url) => url === '/api/v1/organization'));
    bff = await startBff(upstream.api, CREDENTIALS);

    await expectUnavailable(await fetch(`${bff.api}/organization`));

    expect(elsewhere.requests).toEqual([]);
    await expectRedirectLogged(bff, status);
  });

  it("to a booking: 502, and the patient's name and phone go nowhere else", async () => {
    upstream.handle(redirecting(status, (url) => url === '/api/v1/appointments/book'));
    bff = await startBff(upstream.api, CREDENTIALS);

    const res = await fetch(`${bff.api}/appointments/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `redirected-${status}` },
      // No dentist: the stub lists none, and a booking naming one it does not list is refused before going anywhere.
      body: JSON.stringify(validBooking()),
    });

    await expectUnavailable(res);
    expect(upstream.requests.filter((req) => req.url === '/api/v1/appointments/book')).toHaveLength(1);
    expect(elsewhere.requests).toEqual([]);
    await expectRedirectLogged(bff, status);
  });

  it('to the readiness probe: /readyz is 503, and the probe goes nowhere else', async () => {
    upstream.handle(redirecting(status, (url) => url === '/api/v1/organization'));
    bff = await startBff(upstream.api, CREDENTIALS);

    const res = await fetch(`${bff.baseUrl}/readyz`);

    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'upstream unavailable' });
    expect(upstream.requests.map((req) => req.url)).toContain('/api/v1/organization');
    expect(elsewhere.requests).toEqual([]);
    await expectRedirectLogged(bff, status);
  });
});
