import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { STATUS_PATH } from '../contract/rules/bff-api.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Where the BFF mounts its public API (bff/app.ts). */
const BFF_API = '/api';

/**
 * A BFF status lookup, GET /api/appointments/status/{reference}: the reference
 * retrieves a patient's name, so it never reaches a log. Matched in any case
 * (Express routes case-insensitively), on the decoded path with repeated
 * slashes collapsed, so no spelling of a reference is logged, whether a route
 * answered it or not. The server's own
 * /api/v1/appointments/status/{id} does not match: appointment ids are not
 * personal data and stay in its log.
 */
const STATUS_LOOKUP = new RegExp(`^${BFF_API}${STATUS_PATH}/.`, 'i');
const STATUS_LOOKUP_PATTERN = `${BFF_API}${STATUS_PATH}/:reference`;

/**
 * The path to log: the request's path without its query string, or the route
 * pattern for a status lookup. pino-http serialises the request when it
 * arrives, before routing, so this reads the URL rather than `req.route`.
 */
function loggedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: match the path as it came.
  }
  return STATUS_LOOKUP.test(decoded.replace(/\/{2,}/g, '/')) ? STATUS_LOOKUP_PATTERN : path;
}

/**
 * Under /api (the BFF's API, and the server's /api/v1): a 4xx there is a
 * client's mistake worth a warning. A 4xx anywhere else is a browser asking
 * for an asset (/favicon.ico, an old widget module): debug, so the demo
 * terminal stays quiet. originalUrl, since a mounted router strips req.url.
 */
function isApiPath(req: IncomingMessage & { originalUrl?: string }): boolean {
  const path = (req.originalUrl ?? req.url ?? '').split('?')[0] ?? '';
  return new RegExp(`^${BFF_API}(?:/|$)`, 'i').test(path.replace(/\/{2,}/g, '/'));
}

/**
 * One log line per request: method, path without its query string (a booking
 * reference replaced by `:reference`), status, time and request id. No headers
 * and no bodies, so no credential or patient field can reach the log.
 */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: loggedPath(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: (err: Error) => ({ type: err.name, message: err.message, stack: err.stack }),
    },
    customLogLevel: (req, res, err) => {
      if (err || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return isApiPath(req) ? 'warn' : 'debug';
      return 'info';
    },
  });
}
