import type { RequestLogPaths } from '../../platform/fast-http/request-logger.js';

/**
 * What the server's request log must know of its paths: a 4xx under /api
 * (its /api/v1, or an integrator asking another version) is a client's
 * mistake worth a warning. No path of it holds a secret: an appointment id in
 * /api/v1/appointments/status/{id} is not personal data and stays in the log.
 */
export const SERVER_LOGGED_PATHS: RequestLogPaths = { api: '/api' };
