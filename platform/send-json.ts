import type { ServerResponse } from 'node:http';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers `body` as JSON, as Express's res.json does with ETags off (this
 * project's setting): the same Content-Type and Content-Length, without the
 * steps res.send takes per request for what it cannot know here (type lookup,
 * charset rewrite, freshness of an ETag that is never set). The text goes to
 * Node as a string, which Node writes in one piece with the headers.
 */
export function sendJson(res: ServerResponse, body: unknown, statusCode = 200): void {
  const text = JSON.stringify(body);
  res.statusCode = statusCode;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
