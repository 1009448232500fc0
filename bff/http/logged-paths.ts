import { STATUS_PATH, UNSUBSCRIBE_PATH } from '../../contract/rules/bff-api.js';
import type { RequestLogPaths } from '../../platform/fast-http/request-logger.js';

/**
 * What the BFF's request log must know of its paths (app.ts mounts them):
 * its API at /api, and a site's at /s/{site_id}/api; a 4xx under either is a
 * client's mistake worth a warning.
 *
 * A status lookup, GET /api/appointments/status/{reference}, is logged as
 * its route pattern: the reference retrieves a patient's name, so it never
 * reaches a log, in whatever spelling it was asked and whether a route
 * answered it or not. A site's lookup keeps its mount (`/s/{site_id}`, a
 * public id), so its line still says which site was asked. The upstream's
 * /api/v1/appointments/status/{id} is the server's to log: appointment ids
 * are not personal data.
 *
 * A patient's unsubscribe page, /mail/unsubscribe/{token} (outside the API),
 * is logged as its pattern too: the token stops a patient's e-mails.
 */
export const BFF_LOGGED_PATHS: RequestLogPaths = {
  api: '/api',
  mountedUnder: ['/s/:siteId'],
  secretRoutes: [`${STATUS_PATH}/:reference`],
  secretPaths: [`${UNSUBSCRIBE_PATH}/:token`],
};
