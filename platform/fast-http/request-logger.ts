import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Level, Logger } from 'pino';
import { loggedError } from '../logged-error.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * What a service tells its request logger about its own paths: platform/
 * knows no URL of either service. Each is a route pattern in Express's form,
 * matched in any letter case (as Express routes) on the decoded path with
 * repeated slashes collapsed, so no spelling of a path escapes it.
 */
export interface RequestLogPaths {
  /**
   * Where the service's API is mounted: a 4xx under it is a client's mistake
   * worth a warning. A 4xx anywhere else is a browser asking for an asset
   * (a favicon, an old widget module): debug, so a terminal stays quiet.
   */
  api: string;
  /**
   * Route patterns the API is mounted under as well (a tenant's
   * `/t/:tenant` serves `/t/:tenant` + `api`). A redacted line keeps this
   * part of the path as it was asked: its parameters are public ids that say
   * which mount was asked.
   */
  mountedUnder?: readonly string[];
  /**
   * Routes under the API whose path carries a secret from its first
   * parameter on (`/orders/:secret`): logged as the mount, the API and this
   * pattern, whatever was asked after the parameter's place, whether a route
   * answered it or not.
   */
  secretRoutes?: readonly string[];
  /**
   * Routes outside the API, and under no mount, whose path carries a secret
   * from its first parameter on (`/links/:token`): logged as this pattern,
   * whatever was asked after the parameter's place, whether a route answered
   * it or not.
   */
  secretPaths?: readonly string[];
}

/** `text` matched literally in a regular expression. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A route pattern as a regular expression: each `:name` one path segment, the rest literally. */
const patternSource = (pattern: string) => pattern.split(/(:\w+)/).map((part, i) => (i % 2 ? '[^/]+' : literally(part))).join('');

/** The path without its query string; repeated slashes collapsed only when there are any (most paths have none). */
const withoutQuery = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};
const collapseSlashes = (path: string) => (path.includes('//') ? path.replace(/\/{2,}/g, '/') : path);

/** A secret route as it is found in a path (group 1: the mount it was asked under, if any), and as it is logged. */
interface SecretRoute {
  found: RegExp;
  logged: string;
}

/** One service's paths as its request logger reads them, their expressions made once. */
class LoggedPaths {
  private readonly underApi: RegExp;
  private readonly secrets: readonly SecretRoute[];

  constructor({ api, mountedUnder = [], secretRoutes = [], secretPaths = [] }: RequestLogPaths) {
    // Group 1, when there are mounts: the one a request was asked under.
    const mount = mountedUnder.length ? `(${mountedUnder.map(patternSource).join('|')})?` : '';
    const apiSource = `^${mount}${patternSource(api)}`;
    this.underApi = new RegExp(`${apiSource}(?:/|$)`, 'i');
    const secret = (under: string, route: string, logged: string): SecretRoute => {
      const parameter = route.indexOf('/:');
      if (parameter === -1) throw new Error(`a secret route names its secret as a parameter: ${route}`);
      return { found: new RegExp(`${under}${patternSource(route.slice(0, parameter + 1))}.`, 'i'), logged };
    };
    this.secrets = [
      ...secretRoutes.map((route) => secret(apiSource, route, `${api}${route}`)),
      ...secretPaths.map((route) => secret('^', route, route)),
    ];
  }

  /**
   * The path to log: the request's path without its query string, or its
   * secret route's pattern. Read from the URL as it arrived (before any
   * mounted router strips it), as the line is about the request, not a route.
   */
  logged(url: string): string {
    const path = withoutQuery(url);
    if (this.secrets.length === 0) return path;
    let decoded = path;
    if (path.includes('%')) {
      try {
        decoded = decodeURIComponent(path);
      } catch {
        // A malformed escape: match the path as it came.
      }
    }
    const asked = collapseSlashes(decoded);
    for (const { found, logged } of this.secrets) {
      const secret = found.exec(asked);
      // The mount it was asked under stays in the line, so the line still says which was asked.
      if (secret) return secret[1] === undefined ? logged : `${secret[1]}${logged}`;
    }
    return path;
  }

  /** Whether a 4xx here is a client's mistake (under the API) rather than a browser asking for an asset. */
  isApi(req: IncomingMessage & { originalUrl?: string }): boolean {
    // originalUrl, since a mounted router strips req.url.
    return this.underApi.test(collapseSlashes(withoutQuery(req.originalUrl ?? req.url ?? '')));
  }
}

/** The level a handler chose for its request's line (logRequestAt), by answer. */
const CHOSEN_LEVELS = new WeakMap<ServerResponse, Level>();

/**
 * Logs this request's line at `level`, with no error in it, whatever its
 * status would choose: for an answer whose cause is logged on its own (a
 * database outage, logged once a minute while every request meanwhile is
 * answered 503), or a client's mistake worth a warning outside the API too
 * (a malformed percent-escape). A stack per request would say nothing more.
 */
export function logRequestAt(res: ServerResponse, level: Level): void {
  CHOSEN_LEVELS.set(res, level);
}

function levelFor(paths: LoggedPaths, req: IncomingMessage, statusCode: number, err: unknown): Level {
  if (err || statusCode >= 500) return 'error';
  if (statusCode >= 400) return paths.isApi(req) ? 'warn' : 'debug';
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
 * connection closed first): method, path without its query string (a secret
 * route's path replaced by its pattern, RequestLogPaths), status, time and
 * request id. No headers and no bodies, so no credential or patient field can
 * reach the log.
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
export function requestLogger(logger: Logger, servicePaths: RequestLogPaths): RequestHandler {
  const paths = new LoggedPaths(servicePaths);
  // The request line is built here from five fields, none of them a redacted
  // key (a secret in the path is replaced by its route's pattern, which no
  // key-based redaction could do): key redaction would only walk it on every request.
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
    const logged: LoggedRequest = { id, method: req.method, path: paths.logged(req.originalUrl ?? req.url ?? '') };
    // Every field from the start, so that a tag added later does not change the state's shape.
    STATES.set(req, { logger, logged, tags: undefined, child: undefined });
    defineLogGetter(Object.getPrototypeOf(req) as object);

    // The listeners stay until the response is gone with them; the flag keeps it to one line.
    let done = false;
    const onEnd = (err?: unknown) => {
      if (done) return;
      done = true;
      logAnswer(accessLogFor(STATES.get(req)?.tags), paths, req, res, logged, Date.now() - started, err);
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
  paths: LoggedPaths,
  req: IncomingMessage,
  res: ServerResponse & { err?: unknown },
  logged: LoggedRequest,
  responseTime: number,
  err: unknown,
): void {
  const chosen = err === undefined ? CHOSEN_LEVELS.get(res) : undefined;
  const level = chosen ?? levelFor(paths, req, res.statusCode, err);
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
