import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Level, Logger } from 'pino';
import { STATUS_PATH } from '../../contract/rules/bff-api.js';
import { loggedError } from '../logged-error.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Where the BFF mounts its public API (bff/app.ts). */
const BFF_API = '/api';
/** A site's mount on a BFF of many clinics (`/s/{site_id}/api`): its status lookups are kept out of the log too. */
const SITE_PREFIX = '/s/[^/]+';

/**
 * A BFF status lookup, GET /api/appointments/status/{reference}: the reference
 * retrieves a patient's name, so it never reaches a log. Matched in any case
 * (Express routes case-insensitively), on the decoded path with repeated
 * slashes collapsed, so no spelling of a reference is logged, whether a route
 * answered it or not. The server's own
 * /api/v1/appointments/status/{id} does not match: appointment ids are not
 * personal data and stay in its log.
 */
const STATUS_LOOKUP = new RegExp(`^(${SITE_PREFIX})?${BFF_API}${STATUS_PATH}/.`, 'i');
const STATUS_LOOKUP_PATTERN = `${BFF_API}${STATUS_PATH}/:reference`;
const API_PATH = new RegExp(`^(?:${SITE_PREFIX})?${BFF_API}(?:/|$)`, 'i');

/** The path without its query string; repeated slashes collapsed only when there are any (most paths have none). */
const withoutQuery = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};
const collapseSlashes = (path: string) => (path.includes('//') ? path.replace(/\/{2,}/g, '/') : path);

/**
 * The path to log: the request's path without its query string, or the route
 * pattern for a status lookup. Read from the URL as it arrived (before any
 * mounted router strips it), as the line is about the request, not a route.
 */
export function loggedPath(url: string): string {
  const path = withoutQuery(url);
  let decoded = path;
  if (path.includes('%')) {
    try {
      decoded = decodeURIComponent(path);
    } catch {
      // A malformed escape: match the path as it came.
    }
  }
  const lookup = STATUS_LOOKUP.exec(collapseSlashes(decoded));
  if (!lookup) return path;
  // A site's lookup keeps its mount (`/s/{site_id}`, a public id), so its line still says which site was asked.
  return lookup[1] === undefined ? STATUS_LOOKUP_PATTERN : `${lookup[1]}${STATUS_LOOKUP_PATTERN}`;
}

/**
 * Under /api (the BFF's API, and the server's /api/v1): a 4xx there is a
 * client's mistake worth a warning. A 4xx anywhere else is a browser asking
 * for an asset (/favicon.ico, an old widget module): debug, so the demo
 * terminal stays quiet. originalUrl, since a mounted router strips req.url.
 */
function isApiPath(req: IncomingMessage & { originalUrl?: string }): boolean {
  return API_PATH.test(collapseSlashes(withoutQuery(req.originalUrl ?? req.url ?? '')));
}

/** The level a handler chose for its request's line (logRequestAt), by answer. */
const CHOSEN_LEVELS = new WeakMap<ServerResponse, Level>();

/**
 * Logs this request's line at `level`, with no error in it, whatever its
 * status would choose: for an answer whose cause is logged on its own (a
 * database outage, logged once a minute while every request meanwhile is
 * answered 503), or a client's mistake worth a warning outside /api too (a
 * malformed percent-escape). A stack per request would say nothing more.
 */
export function logRequestAt(res: ServerResponse, level: Level): void {
  CHOSEN_LEVELS.set(res, level);
}

function levelFor(req: IncomingMessage, statusCode: number, err: unknown): Level {
  if (err || statusCode >= 500) return 'error';
  if (statusCode >= 400) return isApiPath(req) ? 'warn' : 'debug';
  return 'info';
}

/** An error as it is logged (loggedError); something thrown that is no Error, by its type and text. */
function serialiseError(err: unknown): { type: string; message: string; stack?: string } {
  return err instanceof Error ? loggedError(err) : { type: typeof err, message: String(err) };
}

/** What a request line says about the request: its id, method and logged path. */
interface LoggedRequest {
  id: string;
  method: string | undefined;
  path: string;
}

declare module 'http' {
  interface IncomingMessage {
    /** A logger whose lines carry this request's id, method and path (requestLogger). */
    log?: Logger;
  }
}

/** What `req.log` is made from, kept on the request. */
interface RequestLogState {
  logger: Logger;
  logged: LoggedRequest;
  /** Fields a handler added for every line of this request (tagRequestLog), e.g. the BFF's `site`. */
  tags?: Record<string, string>;
  child?: Logger;
}

/**
 * Adds `fields` to every line this request logs from now on: its request line
 * and req.log's (the BFF's `site`, known only once its router has read the
 * path). Nothing when the request has no request logger.
 */
export function tagRequestLog(req: IncomingMessage, fields: Record<string, string>): void {
  const state = STATES.get(req);
  if (!state) return;
  // Kept as given when it is the request's first tag: callers pass one object per site, so that the access
  // line's logger for it is made once (requestLogger), not per request.
  state.tags = state.tags ? { ...state.tags, ...fields } : fields;
  state.child = undefined;
}

/** Each request's state, beside it rather than on it: a property added to every request costs more. */
const STATES = new WeakMap<IncomingMessage, RequestLogState>();

/**
 * `req.log`, a getter defined once on the requests' prototype (Express's
 * app.request) rather than on every request: the child logger is made the
 * first time a handler logs (an error handler), not for every request.
 */
function defineLogGetter(prototype: object): void {
  if (Object.prototype.hasOwnProperty.call(prototype, 'log')) return;
  Object.defineProperty(prototype, 'log', {
    configurable: true,
    enumerable: false,
    get(this: IncomingMessage): Logger | undefined {
      const state = STATES.get(this);
      if (!state) return undefined;
      return (state.child ??= state.logger.child({ ...state.tags, req: state.logged }));
    },
  });
}

/**
 * One log line per request, written when its answer has finished (or the
 * connection closed first): method, path without its query string (a booking
 * reference replaced by `:reference`), status, time and request id. No headers
 * and no bodies, so no credential or patient field can reach the log.
 *
 * The same line pino-http wrote (req {id, method, path}, res {statusCode},
 * responseTime, "request completed" / "request aborted" / "request errored"
 * with err), without its per-request cost (about a fifth of the BFF's CPU in
 * a profile of cached GETs): pino-http builds a child logger for every request
 * and serialises the whole request (headers, socket, query) only for a
 * serializer to keep three fields of it; here the three fields are read
 * directly, and the child logger behind `req.log` is made only when a handler
 * logs.
 */
export function requestLogger(logger: Logger): RequestHandler {
  // The request line is built here from five fields, none of them a redacted
  // key (a booking reference in the path is replaced above, which no key-based
  // redaction could do): key redaction would only walk it on every request.
  // Every other line, req.log's included, keeps the logger's redaction.
  const accessLog = logger.child({}, { redact: [] });
  // The access logger of each tags object (tagRequestLog): a pino child writes its bindings as text made
  // once, where spreading the tags into every line's object cost about 4 % of the BFF's CPU (a profile of
  // cached GETs, 2026-11-26: 3,714 against 4,742 req/s before sites tagged their lines).
  const tagged = new WeakMap<Record<string, string>, Logger>();
  const accessLogFor = (tags: Record<string, string> | undefined): Logger => {
    if (!tags) return accessLog;
    let child = tagged.get(tags);
    if (!child) tagged.set(tags, (child = accessLog.child(tags)));
    return child;
  };
  return (req, res, next) => {
    const started = Date.now();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    const logged: LoggedRequest = { id, method: req.method, path: loggedPath(req.originalUrl ?? req.url ?? '') };
    // Every field from the start, so that a tag added later does not change the state's shape.
    STATES.set(req, { logger, logged, tags: undefined, child: undefined });
    defineLogGetter(Object.getPrototypeOf(req) as object);

    // The listeners stay until the response is gone with them; the flag keeps it to one line.
    let done = false;
    const onEnd = (err?: unknown) => {
      if (done) return;
      done = true;
      logAnswer(accessLogFor(STATES.get(req)?.tags), req, res, logged, Date.now() - started, err);
    };
    // 'close' follows 'finish' on every answer, and comes alone when the client
    // went away first; 'error' also keeps a write error from crashing the process.
    res.on('close', onEnd);
    res.on('error', onEnd);
    next();
  };
}

function logAnswer(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse & { err?: unknown },
  logged: LoggedRequest,
  responseTime: number,
  err: unknown,
): void {
  const chosen = err === undefined ? CHOSEN_LEVELS.get(res) : undefined;
  const level = chosen ?? levelFor(req, res.statusCode, err);
  if (!logger.isLevelEnabled(level)) return;
  const answer = { statusCode: res.statusCode };
  const failure = err ?? res.err;
  if (chosen === undefined && (failure || res.statusCode >= 500)) {
    const error = serialiseError(failure ?? new Error(`failed with status code ${res.statusCode}`));
    logger[level]({ req: logged, res: answer, err: error, responseTime }, 'request errored');
    return;
  }
  const completed = !req.readableAborted && res.writableEnded;
  logger[level]({ req: logged, res: answer, responseTime }, completed ? 'request completed' : 'request aborted');
}
