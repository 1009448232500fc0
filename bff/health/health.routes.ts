import { Router } from 'express';
import type { Readiness } from './readiness.js';

/**
 * GET /healthz: the process is up (liveness; never asks upstream).
 * GET /readyz: upstream answers this BFF (readiness; see Readiness). A BFF of
 * sites only has no upstream of its own (`readiness` absent): ready once it
 * listens, since one clinic's outage must not take every other site it serves
 * out of a load balancer.
 */
export function healthRoutes(readiness?: Readiness): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    if (!readiness || (await readiness.isReady())) res.json({ status: 'ready' });
    else res.status(503).json({ status: 'upstream unavailable' });
  });
  return router;
}
