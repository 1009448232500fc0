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
 * error handler turns into the spec's body (400, 413, 415).
 */
export function jsonBody(limitBytes: number = LIMITS.requestBodyBytes): RequestHandler[] {
  return [requireJson, express.json({ limit: limitBytes, strict: true, type: 'application/json' })];
}
