import type { ErrorRequestHandler } from 'express';
import { sendError } from '../../platform/error-body.js';
import { errorHandler } from '../../platform/error-handler.js';
import { UpstreamUnavailable } from '../upstream/errors.js';

/**
 * Upstream failures become 504 upstream_timeout or 502 upstream_unavailable
 * with the spec's error body and nothing of the upstream's own answer; every
 * other error goes to the server's terminal handler (spec bodies, bare 500s).
 */
export const bffErrorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (!(err instanceof UpstreamUnavailable) || res.headersSent) {
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
