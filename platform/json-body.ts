import express, { type RequestHandler } from 'express';
import { ApiError, LIMITS } from '../contract/index.js';

/** Spec 4.1: a body must be sent as application/json; anything else is 415. */
export const requireJson: RequestHandler = (req, _res, next) => {
  if (!req.is('application/json')) {
    next(new ApiError('unsupported_media_type', 'Send the request body as application/json'));
    return;
  }
  next();
};

/**
 * A JSON body of at most `limitBytes`, objects and arrays only (strict):
 * 415 for another content type, then the parse, whose failures the terminal
 * error handler turns into the spec's body (400, 413, 415). A body sent with
 * Content-Encoding gzip, deflate or br is inflated first; one that is not valid
 * compressed data is the client's mistake, 400 like malformed JSON.
 */
export function jsonBody(limitBytes: number = LIMITS.requestBodyBytes): RequestHandler[] {
  const parse = express.json({ limit: limitBytes, strict: true, type: 'application/json' });
  const parseJson: RequestHandler = (req, res, next) => {
    parse(req, res, (err?: unknown) => {
      if (isDecompressionError(err)) {
        const encoding = (req.get('content-encoding') ?? '').trim().toLowerCase();
        next(new ApiError('validation_error', `Invalid request: body is not valid ${encoding} data`));
        return;
      }
      next(err);
    });
  };
  return [requireJson, parseJson];
}

/**
 * zlib's failure on a corrupt or truncated stream (Z_DATA_ERROR, Z_BUF_ERROR,
 * brotli's ERR__ERROR_FORMAT_…), which body-parser passes on as is: unlike its
 * own errors it carries no `type`, only zlib's numeric `errno` and string `code`.
 */
function isDecompressionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { type, errno, code } = err as { type?: unknown; errno?: unknown; code?: unknown };
  return type === undefined && typeof errno === 'number' && typeof code === 'string' && /^(Z_|ERR_)/.test(code);
}
