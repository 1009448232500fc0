// The Express reference server, run as a child process by startExpressServer() in bare-server.mjs:
// Express 5 with no middleware at all, one GET route answering the exact bytes and
// content-type of one captured answer. Between the bare node:http server and a server under test, it
// shows what Express itself costs on this machine, before any middleware or handler work.
//
// Configured by the environment only: PORT, BENCH_PATH, BENCH_BODY_BASE64, BENCH_CONTENT_TYPE, and
// BENCH_APP_PROTOTYPES=1 to listen as both services do (dist/platform/fast-http/http-server.js: requests and
// responses made with the app's prototypes, so Express's Object.setPrototypeOf finds them in place)
// rather than with app.listen.

import { createServer } from 'node:http';
import express from 'express';

const body = Buffer.from(process.env.BENCH_BODY_BASE64 ?? '', 'base64');
const contentType = process.env.BENCH_CONTENT_TYPE ?? 'application/octet-stream';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get(process.env.BENCH_PATH ?? '/', (_req, res) => {
  res.type(contentType).send(body);
});

// app.listen is createServer(app).listen.
const makeServer = process.env.BENCH_APP_PROTOTYPES === '1' ? (await import('../../dist/platform/fast-http/http-server.js')).createHttpServer : createServer;
const server = makeServer(app).listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
