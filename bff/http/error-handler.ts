import type { ErrorRequestHandler } from 'express';
import { ApiError } from '../../contract/errors.js';
import { sendError } from '../../platform/error-body.js';
import { errorHandler } from '../../platform/error-handler.js';
import { BookingRefused } from '../../contract/bff.js';
import { UpstreamBusy, UpstreamUnavailable } from '../upstream/errors.js';

/**
 * A booking the BFF refused itself (BookingRefused) is 400 with its reason
 * code in the body (BffErrorBody). Upstream failures become 504
 * upstream_timeout or 502 upstream_unavailable with the spec's error body and
 * nothing of the upstream's own answer. A contract error that says when to
 * come back (`retryAfterSeconds`: a busy upstream, a spent read budget, a
 * booking whose outcome is unknown) gets its Retry-After. Everything else goes
 * to the server's terminal handler (spec bodies, bare 500s).
 */
export const bffErrorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) {
    errorHandler(err, req, res, next);
    return;
  }
  if (err instanceof BookingRefused) {
    res.status(err.status).json(err.body());
    return;
  }
  if (err instanceof ApiError) {
    const retryAfter = (err as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof retryAfter === 'number') res.set('Retry-After', String(retryAfter));
    if (err instanceof UpstreamBusy) req.log?.warn({ upstream: 'busy', retryAfter }, 'upstream busy');
    errorHandler(err, req, res, next);
    return;
  }
  if (!(err instanceof UpstreamUnavailable)) {
    errorHandler(err, req, res, next);
    return;
  }
  req.log?.warn({ upstream: err.reason }, 'upstream unavailable');
  res.set('Retry-After', '5');
  if (err.reason === 'timeout') {
    sendError(res, 'upstream_timeout', 'The clinic system did not answer in time; please try again');
  } else {
    sendError(res, 'upstream_unavailable', 'The clinic system is unavailable; please try again shortly');
  }
};
