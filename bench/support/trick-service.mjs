// One compiled service (dist/server or dist/bff) with every hot-path trick on, or with one of them
// replaced by the library's plain way, for bench/tricks.bench.mjs:
//
//   node bench/support/trick-service.mjs server|bff [trick]
//
// It reads the same environment as dist/server/main.js or dist/bff/main.js and builds the app the
// same way (createApp, createBff), without tracing, metrics, Redis or a drain: SIGTERM ends it.
//
// How a trick is switched off, without a switch in the services' code:
//   - the database's tricks through the one option the database layer has for it
//     (`performance`, server/db/performance/switches.ts);
//   - every other trick is built here from public pieces: the server listens through
//     http.createServer instead of createHttpServer, the logger writes to pino's own destination,
//     and a middleware of the built app is put back to the library's own (express-rate-limit's own
//     headers and keys, pino-http's steps instead of the request logger). Such a middleware is found in the
//     app's router stacks by what it is (the module's own export, or a line of its source); exactly
//     one must match, or the service refuses to start, so a change of the app cannot silently leave a
//     trick in place. The treatment list's handler is put back the same way, answering with res.json;
//   - the clinic-now cache by its own class's method, put back to the plain call before the app
//     is built: ClinicNowReadings.at to clinicNow.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { rateLimit } from 'express-rate-limit';
import { pino } from 'pino';

const [service, trick = 'none'] = process.argv.slice(2);
const dist = (path) => import(new URL(`../../dist/${path}`, import.meta.url).href);

/** Every trick this script can switch off, per service. */
const SWITCHABLE = {
  server: [
    'http-server', 'buffered-stdout', 'request-logger', 'rate-limit-headers', 'send-json',
    'unchanged-reads', 'statement-cache', 'prepared-statements', 'precompiled-queries', 'clinic-now',
  ],
  bff: ['http-server', 'buffered-stdout', 'request-logger', 'rate-limit-headers'],
};

// ---------------------------------------------------------------------------------------------------
// Finding a middleware in the built app
// ---------------------------------------------------------------------------------------------------

const sourceOf = (fn) => Function.prototype.toString.call(fn);

/** Every layer of the app's routers (not of single routes), the app's own first. */
function routerLayers(router, found = []) {
  for (const layer of router.stack) {
    found.push(layer);
    if (!layer.route && Array.isArray(layer.handle?.stack)) routerLayers(layer.handle, found);
  }
  return found;
}

/** Puts `handle` in place of the one middleware `matches` picks; anything but one match is an error. */
function replaceMiddleware(app, what, matches, handle) {
  const found = routerLayers(app.router).filter((layer) => typeof layer.handle === 'function' && matches(layer.handle));
  if (found.length !== 1) throw new Error(`switching off ${what}: ${found.length} middleware matched, not 1`);
  found[0].handle = handle;
}

/** Puts `handle` in place of the handler of the one GET route at `path` (relative to its router). */
function replaceRouteHandler(app, what, path, handle) {
  const found = routerLayers(app.router).filter((layer) => layer.route?.path === path && layer.route.methods.get);
  if (found.length !== 1) throw new Error(`switching off ${what}: ${found.length} routes matched ${path}, not 1`);
  found[0].route.stack.at(-1).handle = handle;
}

// ---------------------------------------------------------------------------------------------------
// The plain ways
// ---------------------------------------------------------------------------------------------------

/**
 * What pino-http does per request, written out (pino-http itself is not a dependency): a request id,
 * a child logger carrying the serialised request, and one line with the serialised response when the
 * answer is finished. It sets the same X-Request-Id header the request logger does.
 */
function pinoHttpSteps(logger) {
  return (req, res, next) => {
    const started = Date.now();
    const id = randomUUID();
    res.setHeader('X-Request-Id', id);
    const log = logger.child({ req: { id, ...pino.stdSerializers.req(req) } });
    req.log = log;
    res.on('finish', () => log.info({ res: pino.stdSerializers.res(res), responseTime: Date.now() - started }, 'request completed'));
    next();
  };
}

/** express-rate-limit on its own: its draft-8 headers, and its own key unless one is given. */
async function plainRateLimit(window, keyGenerator) {
  const { sendError } = await dist('platform/error-body.js');
  return rateLimit({
    identifier: 'api',
    limit: window.limit,
    windowMs: window.windowMs,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    ...(keyGenerator ? { keyGenerator } : {}),
    handler: (_req, res) => sendError(res, 'rate_limited', 'Too many requests'),
  });
}

const isRequestLogger = (fn) => sourceOf(fn).includes("req.headers['x-request-id']");
const isSpecRateLimit = (fn) => sourceOf(fn).includes('const earlier = countOf(req)');

// ---------------------------------------------------------------------------------------------------
// The services
// ---------------------------------------------------------------------------------------------------

function createLoggerFor(createLogger, level) {
  // pino's own destination (SonicBoom on fd 1, each line written as it comes) instead of BufferedStdout.
  return trick === 'buffered-stdout' ? createLogger(level, pino.destination(1)) : createLogger(level);
}

async function buildServer() {
  const { loadServerConfig } = await dist('server/config.js');
  const { createLogger } = await dist('platform/logger.js');
  const { openDatabase } = await dist('server/db/connection.js');
  const { ALL_TRICKS_ON } = await dist('server/db/performance/switches.js');
  const { createApp } = await dist('server/app.js');
  const { systemClock } = await dist('platform/clock.js');
  const config = loadServerConfig();
  const logger = createLoggerFor(createLogger, config.logLevel);
  if (trick === 'clinic-now') {
    const { ClinicNowReadings, clinicNow } = await dist('contract/rules/clinic-now.js');
    ClinicNowReadings.prototype.at = clinicNow;
  }
  const performance = {
    ...ALL_TRICKS_ON,
    ...(trick === 'unchanged-reads' ? { unchangedReads: false } : {}),
    ...(trick === 'statement-cache' ? { statementCache: false } : {}),
    ...(trick === 'prepared-statements' ? { preparedStatements: false } : {}),
    ...(trick === 'precompiled-queries' ? { precompiledQueries: false } : {}),
  };
  const database = await openDatabase(config.database, { performance });
  const app = createApp({ database, clock: systemClock, config, logger });
  if (trick === 'request-logger') replaceMiddleware(app, trick, isRequestLogger, pinoHttpSteps(logger));
  if (trick === 'rate-limit-headers') {
    const { authenticatedClinic } = await dist('server/auth/authenticated-clinic.js');
    replaceMiddleware(app, trick, isSpecRateLimit, await plainRateLimit(config.apiRateLimit, (_req, res) => authenticatedClinic(res).appKey));
  }
  if (trick === 'send-json') {
    // The list as server/treatments/treatments.routes.ts reads it (kept while the database is unchanged), sent by res.json.
    const { authenticatedClinic } = await dist('server/auth/authenticated-clinic.js');
    const { Stores } = await dist('server/stores.js');
    const { treatments } = Stores.of(database);
    replaceRouteHandler(app, trick, '/treatments', async (_req, res) => {
      res.json({ success: true, data: await treatments.listActive(authenticatedClinic(res).careId) });
    });
  }
  return { app, config };
}

async function buildBff() {
  const { loadBffConfig } = await dist('bff/config.js');
  const { createLogger } = await dist('platform/logger.js');
  const { createBff } = await dist('bff/app.js');
  const config = loadBffConfig();
  const logger = createLoggerFor(createLogger, config.logLevel);
  const { app } = createBff({ config, logger });
  if (trick === 'request-logger') replaceMiddleware(app, trick, isRequestLogger, pinoHttpSteps(logger));
  if (trick === 'rate-limit-headers') {
    const { clientIpKey } = await dist('platform/rate-limits.js');
    replaceMiddleware(app, trick, isSpecRateLimit, await plainRateLimit(config.apiRateLimit, clientIpKey));
  }
  return { app, config };
}

if (!SWITCHABLE[service] || (trick !== 'none' && !SWITCHABLE[service].includes(trick))) {
  console.error(`usage: trick-service.mjs server|bff [${[...new Set(Object.values(SWITCHABLE).flat())].join('|')}]`);
  process.exit(2);
}
const { app, config } = service === 'server' ? await buildServer() : await buildBff();
const { createHttpServer } = await dist('platform/fast-http/http-server.js');
const server = trick === 'http-server' ? createServer(app) : createHttpServer(app);
server.listen(config.port, config.host);
process.on('SIGTERM', () => process.exit(0));
