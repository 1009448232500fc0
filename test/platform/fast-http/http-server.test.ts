import { Agent, createServer, IncomingMessage, OutgoingMessage, request, ServerResponse, type Server } from 'node:http';
import { Readable, Stream, Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../platform/fast-http/http-server.js';

// Both services listen through createHttpServer (platform/fast-http/http-server.ts):
// requests and responses are made with the app's prototypes, so Express's own
// Object.setPrototypeOf finds them in place. What Express gives a request must
// be unchanged.

/** The prototypes each request and response had when the server emitted it, before Express saw it. */
const arrived: { request: object | null; response: object | null }[] = [];
let app: Express;
let server: Server;
let baseUrl: string;
let agent: Agent;

beforeAll(async () => {
  app = express();
  app.set('trust proxy', false);
  app.use(express.json());
  app.get('/echo', (req, res) => {
    res.status(203).json({
      host: req.get('host'),
      query: req.query,
      ip: req.ip,
      path: req.path,
      isIncomingMessage: req instanceof IncomingMessage,
      isServerResponse: res instanceof ServerResponse,
    });
  });
  app.post('/echo', (req, res) => {
    res.set('X-Seen', 'yes').json({ body: req.body as unknown });
  });
  server = createHttpServer(app);
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    arrived.push({ request: Object.getPrototypeOf(req) as object, response: Object.getPrototypeOf(res) as object });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
});

afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** One request over the test's single kept-alive connection. */
function send(method: string, path: string, body?: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method, agent, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('createHttpServer', () => {
  it('makes every request and response with the app’s own prototypes, on each request of a kept-alive connection', async () => {
    arrived.length = 0;
    for (let i = 0; i < 3; i++) expect((await send('GET', '/echo')).status).toBe(203);
    expect(arrived).toHaveLength(3);
    for (const { request: requestPrototype, response: responsePrototype } of arrived) {
      expect(requestPrototype).toBe(app.request);
      expect(responsePrototype).toBe(app.response);
    }
  });

  it('gives handlers what Express gives them: its request getters and response methods, on Node’s own classes', async () => {
    const answer = await send('GET', '/echo?a=1&b=two');
    expect(answer.status).toBe(203);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.text)).toEqual({
      host: new URL(baseUrl).host,
      query: { a: '1', b: 'two' },
      ip: '127.0.0.1',
      path: '/echo',
      isIncomingMessage: true,
      isServerResponse: true,
    });
  });

  it('streams request bodies as Node does (express.json reads them) and answers HEAD without a body', async () => {
    const posted = await send('POST', '/echo', JSON.stringify({ name: 'Ada' }));
    expect(posted.status).toBe(200);
    expect(posted.headers['x-seen']).toBe('yes');
    expect(JSON.parse(posted.text)).toEqual({ body: { name: 'Ada' } });

    const head = await send('HEAD', '/echo');
    expect(head.status).toBe(203);
    expect(head.text).toBe('');
  });
});

/**
 * Guard of a hot-path trick (docs/performance.md): what createHttpServer relies
 * on, checked on the libraries themselves, so an upgrade that changes it fails
 * here rather than every request throwing, or the gain going quietly.
 */
describe('what createHttpServer relies on', () => {
  it('Express 5 gives each request and response the app’s own prototypes itself (app.request, app.response)', async () => {
    const plain = express();
    const seen: { request?: object | null; response?: object | null } = {};
    plain.get('/', (req, res) => {
      seen.request = Object.getPrototypeOf(req) as object;
      seen.response = Object.getPrototypeOf(res) as object;
      res.end();
    });
    const listening = createServer(plain).listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    try {
      await (await fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/`)).text();
    } finally {
      listening.closeAllConnections();
      await new Promise((resolve) => listening.close(resolve));
    }

    // Compared by identity only: printing a request prototype would run its getters.
    expect(seen.request === plain.request).toBe(true);
    expect(seen.response === plain.response).toBe(true);
    expect(plain.request instanceof IncomingMessage).toBe(true);
    expect(plain.response instanceof ServerResponse).toBe(true);
  });

  it.each([
    ['IncomingMessage', IncomingMessage],
    ['ServerResponse', ServerResponse],
    ['OutgoingMessage', OutgoingMessage],
    ['Readable', Readable],
    ['Writable', Writable],
    ['Stream', Stream],
  ])('Node’s %s is a plain function, callable on an object made with another prototype (not a class)', (_name, constructor) => {
    expect(Function.prototype.toString.call(constructor)).not.toMatch(/^class\b/);
  });
});
