import express, { type RequestHandler } from 'express';
import { ApiError } from '../contract/errors.js';
import { LIMITS } from '../contract/index.js';

/** Spec 4.1: a booking must be sent as application/json; anything else is 415. */
export const requireJson: RequestHandler = (req, _res, next) => {
  if (!req.is('application/json')) {
    next(new ApiError('unsupported_media_type', 'Send the request body as application/json'));
    return;
  }
  next();
};

/** Parses JSON bodies of at most LIMITS.requestBodyBytes; only objects and arrays (strict). */
export const jsonBody = express.json({ limit: LIMITS.requestBodyBytes, strict: true, type: 'application/json' });
