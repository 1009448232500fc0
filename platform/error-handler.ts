import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError } from '../contract/errors.js';
import { sendError } from './error-body.js';
import { LIMITS } from '../contract/index.js';
import { logRequestAt } from './fast-http/request-logger.js';

/** Any path or method that no route answers. */
export const notFoundHandler: RequestHandler = (_req, res) => {
  sendError(res, 'not_found', 'Route not found');
};

/** Errors that body-parser raises, by their `type`, mapped to the spec's body. */
const BODY_PARSER_ERRORS: Record<string, (err: { limit?: unknown }) => ApiError> = {
  'entity.parse.failed': () => new ApiError('validation_error', 'Invalid request: body is not valid JSON'),
  'entity.too.large': (err) =>
    new ApiError('payload_too_large', `Request body exceeds ${typeof err.limit === 'number' ? err.limit : LIMITS.requestBodyBytes} bytes`),
  'encoding.unsupported': () => new ApiError('unsupported_media_type', 'Unsupported Content-Encoding; send the body as is or as gzip, deflate or br'),
  'charset.unsupported': () => new ApiError('unsupported_media_type', 'Unsupported charset; send UTF-8 JSON'),
  'request.aborted': () => new ApiError('validation_error', 'Request body was aborted'),
  'request.size.invalid': () => new ApiError('validation_error', 'Request body length does not match Content-Length'),
};

/**
 * A path whose percent-escape does not decode (`/treatments/%E0`): Express's
 * router decodes each route parameter with decodeURIComponent and passes on
 * the URIError with status 400, before any handler of that route runs.
 */
const isMalformedEscape = (err: unknown): boolean => err instanceof URIError && (err as { status?: unknown }).status === 400;

const MALFORMED_ESCAPE = 'Invalid request: the path holds a malformed percent-escape';

/**
 * The terminal error handler: known errors become their spec body; anything
 * else is logged with the request's context and answered as a bare 500 with
 * no stack trace or internal message.
 */
export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  const parserType = (err as { type?: unknown } | null)?.type;
  const known =
    err instanceof ApiError
      ? err
      : typeof parserType === 'string' && parserType in BODY_PARSER_ERRORS
        ? BODY_PARSER_ERRORS[parserType]!(err as { limit?: unknown })
        : isMalformedEscape(err)
          ? new ApiError('validation_error', MALFORMED_ESCAPE)
          : undefined;
  if (res.headersSent) {
    req.log?.error({ err: summariseError(err) }, 'error after response started');
    res.destroy();
    return;
  }
  if (known) {
    // A client's mistake on any path, /widget and /assets too: one warning, whatever the path.
    if (isMalformedEscape(err)) logRequestAt(res, 'warn');
    sendError(res, known.code, known.message);
    return;
  }
  req.log?.error({ err: summariseError(err) }, 'unhandled error');
  sendError(res, 'internal_error', 'Internal server error');
};

/**
 * Only the error's class, message and stack go to the log: body-parser errors
 * carry the raw body, and JSON syntax messages quote it, which may hold a
 * patient's name or phone. Parse errors never reach here as unknown errors.
 */
function summariseError(err: unknown): { type: string; message: string; stack?: string } {
  if (err instanceof Error) return { type: err.name, message: err.message, stack: err.stack };
  return { type: typeof err, message: 'non-Error thrown' };
}
