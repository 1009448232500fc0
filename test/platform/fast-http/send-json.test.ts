import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';
import { jsonSentOnce } from '../../../platform/fast-http/send-json.js';

/**
 * Guard of a hot-path trick (docs/performance.md): platform/fast-http/send-json.ts writes
 * what Express's res.json writes with ETags off, without res.send's steps. If an
 * Express upgrade changes those headers or bytes, this fails, and the trick must
 * follow or go.
 */
const BODY = { success: true, data: [{ id: 1, name: 'Zahnreinigung – “Plus”', fee: 45.5 }, { id: 2, note: null }] };

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.set('etag', false);
  app.get('/express', (_req, res) => void res.json(BODY));
  const once = jsonSentOnce((value: typeof BODY) => value);
  app.get('/sent-once', (_req, res) => once(res, BODY));
  server = createHttpServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** What a client sees of an answer, less the headers that differ by the moment (Date) or connection. */
async function seen(path: string, method = 'GET') {
  const res = await fetch(`${base}${path}`, { method });
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('hex') };
}

describe('jsonSentOnce', () => {
  it("answers exactly what Express's res.json answers with ETags off, the first time and after: status, headers and bytes", async () => {
    const expected = await seen('/express');
    expect(await seen('/sent-once')).toEqual(expected);
    expect(await seen('/sent-once')).toEqual(expected);
  });

  it('answers a HEAD with the same headers and no body, as res.json does', async () => {
    expect(await seen('/sent-once', 'HEAD')).toEqual(await seen('/express', 'HEAD'));
  });
});
