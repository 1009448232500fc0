// The reference servers, each a child process answering with the exact bytes and content-type of one
// captured answer:
//   - the bare server: node:http and nothing else, answering every request. It is the ceiling for this
//     machine and this client, against which the servers under test are compared;
//   - Express 5 with no middleware (express-server.mjs), one route: what Express alone reaches here,
//     i.e. how much of the gap to the bare server is Express itself rather than the code under test.

import { join } from 'node:path';
import { HOST, ROOT, spawnNode, waitUntilReady } from './processes.mjs';

const EXPRESS_SERVER_ENTRY = join(ROOT, 'bench/support/express-server.mjs');

/** GET `path` once: its exact body bytes and content-type, for the bare server to repeat. */
export async function captureResponse(baseUrl, path, headers = {}) {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  return { body, contentType: response.headers.get('content-type') ?? 'application/octet-stream' };
}

const BARE_SERVER_SCRIPT = `
import { createServer } from 'node:http';
const body = Buffer.from(process.env.BENCH_BODY_BASE64, 'base64');
const headers = { 'content-type': process.env.BENCH_CONTENT_TYPE, 'content-length': body.length };
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => { server.close(() => process.exit(0)); server.closeIdleConnections(); });
`;

/**
 * Starts the bare server on its own free port; it answers any path, `readyPath` is the one polled
 * until it answers.
 */
export async function startBareServer(port, captured, readyPath = '/') {
  const env = {
    PATH: process.env.PATH ?? '',
    PORT: String(port),
    BENCH_BODY_BASE64: captured.body.toString('base64'),
    BENCH_CONTENT_TYPE: captured.contentType,
  };
  const child = spawnNode('bare server', ['--input-type=module', '-e', BARE_SERVER_SCRIPT], env);
  await waitUntilReady(child, `http://${HOST}:${port}${readyPath}`);
  await assertSameAnswer('the bare server', `http://${HOST}:${port}${readyPath}`, captured);
  return child;
}

/**
 * Starts Express 5 with no middleware (bench/support/express-server.mjs) on its own free port, with
 * one GET route, `path`, answering the captured bytes and content-type. It runs from the repository
 * root so `express` is the repository's own (node_modules), the version the servers under test use.
 * `madeWithAppPrototypes`: it listens as both services do (platform/fast-http/http-server.ts) instead of with
 * app.listen, which spares Express most of its own cost.
 */
export async function startExpressServer(port, captured, path, { madeWithAppPrototypes = false } = {}) {
  const env = {
    PATH: process.env.PATH ?? '',
    PORT: String(port),
    BENCH_PATH: path,
    BENCH_BODY_BASE64: captured.body.toString('base64'),
    BENCH_CONTENT_TYPE: captured.contentType,
    ...(madeWithAppPrototypes ? { BENCH_APP_PROTOTYPES: '1' } : {}),
  };
  const child = spawnNode('Express server', [EXPRESS_SERVER_ENTRY], env, { cwd: ROOT });
  await waitUntilReady(child, `http://${HOST}:${port}${path}`);
  await assertSameAnswer('the Express server', `http://${HOST}:${port}${path}`, captured);
  return child;
}

/** A reference server must answer the very bytes and content-type it stands in for. */
async function assertSameAnswer(name, url, captured) {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('content-type');
  if (response.status !== 200 || !body.equals(captured.body) || contentType !== captured.contentType) {
    throw new Error(`${name} does not answer the captured bytes: ${response.status}, ${body.length} bytes ` +
      `(${contentType}) instead of 200, ${captured.body.length} bytes (${captured.contentType})`);
  }
}
