import { request, type IncomingHttpHeaders } from 'node:http';
import type { TestServer } from './test-server.js';

/** An answer of POST /granttoken: its status, its body's text and its headers. */
export interface ExchangeAnswer {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
}

/**
 * POST /granttoken from the loopback address `from` (127.0.0.x): a real
 * connection from another client IP, as the server sees it without a proxy.
 */
export function exchangeFrom(server: TestServer, from: string, appKey: string, secret: string): Promise<ExchangeAnswer> {
  const url = new URL(`${server.api}/granttoken`);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, headers: { 'x-app-key': appKey, 'x-app-secret-key': secret } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
