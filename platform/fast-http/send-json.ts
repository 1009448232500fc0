import type { ServerResponse } from 'node:http';

/**
 * A sender of JSON bodies built from values kept across requests (a clinic's
 * lists, kept while the database is unchanged): each value's body is
 * serialised once, on its first answer, and its bytes are sent as they are
 * after that, with the status and headers Express's res.json gives them with
 * ETags off (this project's setting), without res.send's steps per request
 * (type lookup, charset rewrite, freshness of an ETag that is never set).
 * Keyed by the value itself in a WeakMap, so the bytes go when the value
 * does; the value must not change (UnchangedReads already requires that of
 * its callers).
 */
export function jsonSentOnce<T extends object>(bodyOf: (value: T) => unknown): (res: ServerResponse, value: T) => void {
  const serialised = new WeakMap<T, Buffer>();
  return (res, value) => {
    let bytes = serialised.get(value);
    if (!bytes) {
      bytes = Buffer.from(JSON.stringify(bodyOf(value)));
      serialised.set(value, bytes);
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
  };
}
