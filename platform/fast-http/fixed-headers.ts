import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

type HeaderValue = string | number | readonly string[];
/** What a header-setting middleware did to a response, in order: a header set to a value, or removed (undefined). */
type Recorded = [name: string, value: HeaderValue | undefined][];

/** Runs `middleware` on a stand-in request and response and notes what it did; it must call next(). */
function record(middleware: RequestHandler, url: string): Recorded {
  const recorded: Recorded = [];
  const res = {
    setHeader(name: string, value: HeaderValue) {
      recorded.push([name, value]);
      return res;
    },
    removeHeader(name: string) {
      recorded.push([name, undefined]);
    },
  };
  const req = { method: 'GET', url, headers: {} } as IncomingMessage;
  let calledNext = false;
  (middleware as (req: unknown, res: unknown, next: (err?: unknown) => void) => void)(req, res, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    calledNext = true;
  });
  if (!calledNext) throw new Error('fixedHeaders: the middleware did not pass the request on');
  return recorded;
}

/**
 * The same headers as `middleware` sets, when it sets the same ones on every
 * answer (helmet with fixed directives), worked out once at start-up: the
 * middleware runs twice on stand-in requests, and each request then gets the
 * recorded list. helmet itself runs a dozen nested middleware per request to
 * set the same dozen strings. A middleware whose headers depend on the
 * request (a CSP nonce) is refused at start-up: its two runs differ.
 */
export function fixedHeaders(middleware: RequestHandler): RequestHandler {
  const first = record(middleware, '/a');
  const second = record(middleware, '/b?c=d');
  if (JSON.stringify(first) !== JSON.stringify(second)) {
    throw new Error('fixedHeaders: the middleware sets different headers per request');
  }
  return (_req, res: ServerResponse, next) => {
    for (const [name, value] of first) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}
