import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';
import { createLogger } from '../../../platform/logger.js';
import { errorHandler } from '../../../platform/error-handler.js';
import { requestLogger } from '../../../platform/fast-http/request-logger.js';
import { collectLogLines } from '../../server/support/test-server.js';
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
/** Set when the route that never answers has its request; settles when its client has gone away. */
let clientGone: Promise<void> | undefined;

beforeAll(async () => {
  const app = express();
  app.use(requestLogger(createLogger('info', sink)));
  app.get('/ok', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/boom', () => {
    throw new Error('kaput');
  });
  app.get('/hang', (req) => {
    clientGone = new Promise((resolve) => req.once('close', () => resolve()));
  });
  app.use(errorHandler);
  server = createHttpServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
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
