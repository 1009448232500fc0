import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';
import { createLogger } from '../../../platform/logger.js';
import { errorHandler } from '../../../platform/error-handler.js';
import { requestLogger } from '../../../platform/fast-http/request-logger.js';
import { collectLogLines } from '../../server/support/test-server.js';
import { BFF_LOGGED_PATHS } from '../../../bff/http/logged-paths.js';
import { SERVER_LOGGED_PATHS } from '../../../server/http/logged-paths.js';
import { eventually } from '../../support/eventually.js';

interface Line {
  level: number;
  msg: string;
  req?: { id: string; method: string; path: string };
  res?: { statusCode: number };
  err?: { type: string; message: string; stack: string };
  responseTime?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const { lines, sink } = collectLogLines();
let server: Server;
let base: string;
/** An app logging with the BFF's paths, at debug, so each line's level shows. */
let bffServer: Server;
let bffBase: string;
/** Set when the route that never answers has its request; settles when its client has gone away. */
let clientGone: Promise<void> | undefined;

beforeAll(async () => {
  const app = express();
  app.use(requestLogger(createLogger('info', sink), SERVER_LOGGED_PATHS));
  app.get('/ok', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/boom', () => {
    throw new Error('kaput');
  });
  app.get('/hang', (req) => {
    clientGone = new Promise((resolve) => req.once('close', () => resolve()));
  });
  app.get('/api/v1/appointments/status/:id', (_req, res) => {
    res.json({ ok: true });
  });
  app.use(errorHandler);
  server = createHttpServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const bff = express();
  bff.use(requestLogger(createLogger('debug', sink), BFF_LOGGED_PATHS));
  bff.get(['/api/appointments/status/:reference', '/s/:siteId/api/appointments/status/:reference', '/mail/unsubscribe/:token'], (_req, res) => {
    res.json({ ok: true });
  });
  bffServer = createHttpServer(bff).listen(0, '127.0.0.1');
  await new Promise((resolve) => bffServer.once('listening', resolve));
  bffBase = `http://127.0.0.1:${(bffServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const listening of [server, bffServer]) {
    listening.closeAllConnections();
    await new Promise((resolve) => listening.close(resolve));
  }
});

/** Where the log stands now: linesFor reads from here, so a test sees only the lines its own requests wrote. */
const mark = () => lines.length;

/** The lines since `since` that name `path`, once `count` of them are in (each is written when its answer has finished). */
async function linesFor(since: number, path: string, count = 1): Promise<Line[]> {
  const matching = () =>
    lines
      .slice(since)
      .map((line) => JSON.parse(line) as Line)
      .filter((line) => line.req?.path === path);
  await eventually(() => expect(matching().length).toBeGreaterThanOrEqual(count));
  return matching();
}

describe('the request log', () => {
  it('writes one line per answered request: req {id, method, path without the query}, res {statusCode}, responseTime, msg', async () => {
    const since = mark();
    const res = await fetch(`${base}/ok?name=Perpetua`);
    await res.text();

    const [line, ...more] = await linesFor(since, '/ok');
    expect(more).toEqual([]);
    expect(Object.keys(line!).sort()).toEqual(['hostname', 'level', 'msg', 'pid', 'req', 'res', 'responseTime', 'time']);
    expect(line).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', path: '/ok' }, res: { statusCode: 200 } });
    expect(Object.keys(line!.req!).sort()).toEqual(['id', 'method', 'path']);
    expect(line!.responseTime).toBeGreaterThanOrEqual(0);
  });

  it('keeps a well-formed X-Request-Id, sends it back, and logs it', async () => {
    const since = mark();
    const res = await fetch(`${base}/ok`, { headers: { 'x-request-id': 'from-the-proxy.42' } });
    await res.text();

    expect(res.headers.get('x-request-id')).toBe('from-the-proxy.42');
    expect((await linesFor(since, '/ok')).map((line) => line.req?.id)).toEqual(['from-the-proxy.42']);
  });

  it('replaces an X-Request-Id that is not an id with a UUID of its own', async () => {
    const since = mark();
    const res = await fetch(`${base}/ok`, { headers: { 'x-request-id': 'Perpetua Quillfeather <script>' } });
    await res.text();

    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(UUID);
    expect((await linesFor(since, '/ok')).map((line) => line.req?.id)).toEqual([id]);
  });

  it("gives a handler's own lines (req.log) the request's id, method and path, and logs a 5xx as an error", async () => {
    const since = mark();
    const res = await fetch(`${base}/boom`);
    await res.text();
    const id = res.headers.get('x-request-id');

    const [unhandled, answered] = await linesFor(since, '/boom', 2);
    expect(unhandled).toMatchObject({ level: 50, msg: 'unhandled error', req: { id, method: 'GET', path: '/boom' }, err: { type: 'Error', message: 'kaput' } });
    expect(answered).toMatchObject({ level: 50, msg: 'request errored', req: { id }, res: { statusCode: 500 }, err: { type: 'Error', message: 'failed with status code 500' } });
  });

  it('logs a request whose client went away before the answer as aborted', async () => {
    const since = mark();
    const abort = new AbortController();
    const pending = fetch(`${base}/hang`, { signal: abort.signal }).catch(() => undefined);
    await eventually(() => expect(clientGone).toBeDefined());
    abort.abort();
    await pending;
    await clientGone;

    const [line] = await linesFor(since, '/hang');
    expect(line).toMatchObject({ level: 30, msg: 'request aborted', req: { method: 'GET', path: '/hang' } });
  });
});

describe('the request log of the paths a service passes', () => {
  const REFERENCE = 'K7QF-2M9X-PA4T-Z3RW-8HNC';

  it("logs the BFF's status lookup under its route pattern in every spelling, a site's keeping its mount", async () => {
    const since = mark();
    const asked = [
      `/api/appointments/status/${REFERENCE}`,
      `/API//Appointments/Status/${REFERENCE}/more?x=1`,
      `/api/appointments/status%2F${REFERENCE}`,
      `/s/clinic-one/api/appointments/status/${REFERENCE}`,
    ];
    for (const path of asked) await (await fetch(`${bffBase}${path}`)).text();

    expect(await linesFor(since, '/api/appointments/status/:reference', 3)).toHaveLength(3);
    expect(await linesFor(since, '/s/clinic-one/api/appointments/status/:reference')).toHaveLength(1);
    for (const line of lines.slice(since)) expect(line.includes('K7QF'), `reference in log line ${line}`).toBe(false);
  });

  it("logs the BFF's unsubscribe page, outside its API, under its route pattern in every spelling, answered or not", async () => {
    const since = mark();
    const TOKEN = 'Zq3v8Jx0_unsubscribe-token-AbC';
    const asked = [`/mail/unsubscribe/${TOKEN}`, `//MAIL/Unsubscribe/${TOKEN}/more?x=1`, `/mail/unsubscribe%2F${TOKEN}`];
    for (const path of asked) await (await fetch(`${bffBase}${path}`)).text();

    expect(await linesFor(since, '/mail/unsubscribe/:token', 3)).toHaveLength(3);
    await (await fetch(`${bffBase}/mail/unsubscribe`)).text();
    expect(await linesFor(since, '/mail/unsubscribe')).toMatchObject([{ level: 20, res: { statusCode: 404 } }]);
    for (const line of lines.slice(since)) expect(line.includes(TOKEN), `token in log line ${line}`).toBe(false);
  });

  it("keeps the server's status path with its appointment id (ids are not personal data)", async () => {
    const since = mark();
    await (await fetch(`${base}/api/v1/appointments/status/42`)).text();

    const [line] = await linesFor(since, '/api/v1/appointments/status/42');
    expect(line).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 200 } });
  });

  it("warns of a 4xx under the BFF's API, a site's included, and logs one elsewhere (an asset) at debug", async () => {
    const since = mark();
    for (const path of ['/api/nope', '/s/clinic-one/api/nope', '/favicon.ico']) await (await fetch(`${bffBase}${path}`)).text();

    expect(await linesFor(since, '/api/nope')).toMatchObject([{ level: 40, res: { statusCode: 404 } }]);
    expect(await linesFor(since, '/s/clinic-one/api/nope')).toMatchObject([{ level: 40, res: { statusCode: 404 } }]);
    expect(await linesFor(since, '/favicon.ico')).toMatchObject([{ level: 20, res: { statusCode: 404 } }]);
  });

  it("warns of a 4xx under the server's API", async () => {
    const since = mark();
    await (await fetch(`${base}/api/v1/nope`)).text();

    expect(await linesFor(since, '/api/v1/nope')).toMatchObject([{ level: 40, res: { statusCode: 404 } }]);
  });
});
