import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { withServerSpans } from '../tracing/server-spans.js';

/**
 * Node's own constructors, called on an object made with another prototype.
 * They are plain functions in Node 20 to 24, as are Readable and Stream under
 * them; were one to become a class, every request would throw and every HTTP
 * test with it. Reflect.construct(IncomingMessage, [socket], AppRequest) would
 * work with a class too, but Express answered a quarter as many requests per
 * second made that way as made with .call (wrk on this machine).
 */
const initRequest = IncomingMessage as unknown as (this: IncomingMessage, socket: Socket) => void;
const initResponse = ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: object) => void;

/**
 * An http.Server for `app` whose requests and responses are made with the
 * app's own prototypes (app.request, app.response), through http.createServer's
 * documented IncomingMessage and ServerResponse options.
 *
 * Express gives each request and response its app's prototype as they enter
 * (Object.setPrototypeOf in app.handle). Changing an object's prototype after
 * it is made is V8's slow path: the object moves to another hidden class, and
 * the property lookups and additions on it that follow miss V8's caches and
 * are done in the runtime. Under callgrind, Express 5 with no middleware spent
 * about two fifths of its 560 000 instructions per GET there (megamorphic
 * loads that missed, JSObject::MigrateToMap). Made with the app's prototype,
 * the request already has it, and Express's setPrototypeOf changes nothing.
 * Express 5 with no middleware answered about 3 times as many requests per
 * second made this way (docs/performance.md).
 *
 * Behaviour is Express's own: each request and response has the same
 * prototype as Express would give it, and is still an http.IncomingMessage /
 * http.ServerResponse. Both services listen through this; the tests' servers too.
 */
export function createHttpServer(app: Express): Server {
  function AppRequest(this: IncomingMessage, socket: Socket) {
    initRequest.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, req: IncomingMessage, options?: object) {
    initResponse.call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    // With traces on, a server span around each request (platform/tracing); otherwise the app itself.
    withServerSpans(app),
  );
}
