import type { Router } from 'express';
import { sendError } from '../../platform/error-body.js';
import { logRequestAt } from '../../platform/fast-http/request-logger.js';
import type { DatabaseReadiness } from './database-readiness.js';

/**
 * GET /healthz: the process is up (liveness; never asks the database).
 * GET /readyz: the database answers (readiness; see DatabaseReadiness), else
 * 503 database_unavailable in the spec's error body.
 */
export function addHealthRoutes(router: Router, readiness: DatabaseReadiness): void {
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    if (await readiness.isReady()) {
      res.json({ status: 'ready' });
      return;
    }
    // A load balancer asks every few seconds through an outage: a warning each time, not an error with a stack.
    logRequestAt(res, 'warn');
    sendError(res, 'database_unavailable', 'The database cannot be reached');
  });
}
